#if canImport(Glibc)
import Glibc
#endif
import ModemALSA
import ModemDSP
import ModemFraming

extension SendCommand {
    /// `send FILE --device D`: the file header and content as two link messages, sent with
    /// ``ReliableSender`` on the live device, on the monotonic clock.
    func runLive(profile: ModemProfile, format: FrameFormat) throws(CLIError) {
        guard rate >= 1 && rate <= 1_000_000 else { throw .usage("--rate must be 1 to 1000000 Hz") }
        let bytes = try InputFile(path: file).readAll()
        let name = baseName(file)
        let header = FileHeader(name: name, size: UInt64(bytes.count), crc: CRC32.update(0, bytes))
        StopSignal.install()
        var link = try LiveLink(options: try live.audioOptions(rate: Int(rate)), profile: profile, format: format,
                                preamble: preamble, verbose: verbosity.verbose)
        link.start()
        let started = monotonicSeconds()
        // Let the streams settle (sound servers play the first audio of a new stream late,
        // by up to about half a second on PulseAudio, and catch up afterwards), then size
        // the ACK timeout with the output path's delay (both ends' buffers, taken to be
        // alike): the timer runs from when a burst is queued, not from when it is heard.
        // What remains of the start-up lag can still cost a retransmission or two.
        while monotonicSeconds() - started < 1.0 { try link.poll(timeout: 0.02) }
        let pathDelay = min(2, max(0, link.outputDelay))
        let config = LinkConfiguration(baud: profile.baud, preambleBits: preamble, turnaround: live.turnaround + pathDelay)
        if verbosity.verbose {
            Diagnostics.info("output path delay \(Diagnostics.number(pathDelay * 1000)) ms; ACK timeout \(Diagnostics.number(config.ackTimeout)) s after each burst")
        }
        var sender = ReliableSender(configuration: config)
        sender.send(header.encoded)
        sender.send(bytes)
        var timedOut = false
        while !sender.isIdle && !StopSignal.isRequested {
            let now = monotonicSeconds()
            if let timeout = live.timeout, now - started >= timeout { timedOut = true; break }
            if let burst = sender.nextBurst(at: now) {
                try link.transmit(burst)
                continue
            }
            try link.poll(timeout: 0.02)
            if !link.bytes.isEmpty { sender.receive(link.bytes, at: monotonicSeconds()) }
        }
        try link.finish()
        let elapsed = monotonicSeconds() - started
        let s = sender.statistics
        if verbosity.verbose || !sender.isIdle {
            Diagnostics.info("\(name): \(s.payloadBytes) of \(bytes.count + header.encoded.count) bytes acknowledged in "
                + "\(Diagnostics.number(elapsed)) s (\(Diagnostics.number(Double(s.payloadBytes) / max(elapsed, 1e-9))) B/s), "
                + "\(s.packetsSent) packets sent, \(s.retransmissions) retransmitted, \(s.timeouts) timeouts, \(s.acks) ACKs, "
                + "\(s.damagedPackets) damaged packets heard")
        }
        if verbosity.verbose { Diagnostics.info(link.counters) }
        if timedOut { throw .runtime("\(name): not acknowledged within \(Diagnostics.number(live.timeout ?? 0)) s; is `softmodem receive DIR --device ...` running at the far end?") }
        if !sender.isIdle { throw .runtime("\(name): interrupted before the receiver acknowledged everything") }
    }
}
