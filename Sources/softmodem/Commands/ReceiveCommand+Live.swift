import ModemALSA
import ModemDSP
import ModemFraming

extension ReceiveCommand {
    /// `receive DIR --device D`: decodes live, acknowledges with ``ReliableReceiver`` on the
    /// monotonic clock, and writes the file. After the file is complete it keeps answering
    /// until the sender has been quiet for a while, because the sender retransmits the last
    /// packet until one of our ACKs gets through.
    func runLive(profile: ModemProfile, format: FrameFormat, assembler: FileAssembler) throws(CLIError) {
        let config = LinkConfiguration(baud: profile.baud, turnaround: live.turnaround)
        var receiver = ReliableReceiver(configuration: config)
        // Quiet long enough for two retransmissions of a full burst to have been heard.
        let linger = 2 * (config.airtime(bytes: config.receiveBuffer) + config.ackTimeout) + 0.5
        StopSignal.install()
        var link = try LiveLink(options: try live.audioOptions(rate: rate), profile: profile, format: format,
                                preamble: config.preambleBits, verbose: verbosity.verbose)
        link.start()
        let started = monotonicSeconds()
        var lastAck = started
        var timedOut = false
        while !StopSignal.isRequested {
            let now = monotonicSeconds()
            if !assembler.completed.isEmpty && !assembler.isReceiving && now - lastAck >= linger { break }
            if let timeout = live.timeout, now - started >= timeout { timedOut = true; break }
            try link.poll(timeout: 0.02)
            if !link.bytes.isEmpty {
                for d in receiver.receive(link.bytes, at: monotonicSeconds()) { try assembler.add(d) }
            }
            if let ack = receiver.nextBurst(at: monotonicSeconds()) {
                try link.transmit(ack)
                lastAck = monotonicSeconds()
            }
        }
        try link.finish()
        let s = receiver.statistics
        if verbosity.verbose {
            let elapsed = monotonicSeconds() - started
            Diagnostics.info("\(s.payloadBytes) payload bytes, \(s.messages) messages in \(Diagnostics.number(elapsed)) s, "
                + "\(s.damagedPackets) damaged packets, \(s.duplicates) duplicates, \(s.acks) ACKs sent")
            Diagnostics.info(link.counters)
        }
        if timedOut && assembler.completed.isEmpty {
            throw .runtime("no complete file within \(Diagnostics.number(live.timeout ?? 0)) s (\(s.payloadBytes) bytes received)")
        }
        try assembler.finish()
    }
}
