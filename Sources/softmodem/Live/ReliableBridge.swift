import ModemALSA
import ModemDSP
import ModemDecoding
import ModemFraming

/// `--reliable` for the full-duplex commands: the input's bytes travel as reliable-link
/// packets (sequence numbers, CRC-32, acknowledgements, retransmission) and the far end's
/// packets are delivered to the output exactly once and in order. The far end is another
/// bridge with `--reliable`, or a board running the reliable-link sketch (which only
/// receives).
///
/// Bytes not yet acknowledged are held, and while more than ``backlogLimit`` wait the input
/// is not read: a program writing faster than the link carries blocks in `write`, as on a
/// slow serial port. Nothing is ever dropped: when the far end stops acknowledging, the
/// bridge says so on stderr and keeps trying; bytes still unacknowledged when it stops are
/// reported as lost (exit 1).
struct ReliableBridge: DuplexLoop {
    let audio: LiveAudioOptions
    let reporter: BurstReporter
    /// Seconds after our own audio has played that its echo may still arrive.
    let echoGuard: Double
    /// A capture that stops delivering audio is waited for (``CaptureReader``).
    var waitsForDevice = false
    /// The far end's receive buffer: no burst of ours is longer (the Arduino's ring).
    var receiveBuffer = 31
    /// Unacknowledged bytes beyond which the input waits.
    static let backlogLimit = 4096
    /// Seconds without progress after which a stalled link is reported (and, once the input
    /// has ended, given up).
    static let stallSeconds = 20.0

    func run<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, tail: Double, input: inout InputReader, output: some BridgePort,
        tick: () throws(CLIError) -> Bool
    ) throws(CLIError) -> (LiveBridge.Counters, String) {
        StopSignal.install()
        var link = try LiveLink(factory, maker, options: audio, waitsForDevice: waitsForDevice, reporter: reporter)
        link.start()
        _ = try tick()
        let pathDelay = try link.settle()
        // LinkConfiguration counts 10 bits a byte; this keeps airtimes right for any modem.
        let baud = 10 / link.secondsPerByte
        let turnaround = LiveLinkOptions.defaultTurnaround
        let sending = LinkConfiguration(receiveBuffer: receiveBuffer, baud: baud, turnaround: turnaround + pathDelay)
        var peer = ReliablePeer(
            sending: sending,
            receiving: LinkConfiguration(receiveBuffer: receiveBuffer, baud: baud, turnaround: turnaround))
        if reporter.verbose {
            Diagnostics.info(
                "reliable link: output path delay \(Diagnostics.number(pathDelay * 1000)) ms, ACK timeout "
                    + "\(Diagnostics.number(sending.ackTimeout, 2)) s, \(sending.maxPayload) bytes a packet, \(sending.window) packet(s) a burst"
            )
        }
        var counters = LiveBridge.Counters()
        var inputOpen = true
        var stall = StallWatch(since: monotonicSeconds())
        loop: while !StopSignal.isRequested && (inputOpen || peer.unacknowledgedBytes > 0) {
            try link.pump()
            if try !tick() { break }
            if inputOpen && peer.unacknowledgedBytes < Self.backlogLimit {
                switch try input.read(waiting: 0) {
                case .end: inputOpen = false
                case .nothing: break
                case .bytes(let got): peer.send(Array(input.buffer[0..<got]))
                }
            }
            let echoDelay = link.outputDelay + link.captureDelay + echoGuard
            if let burst = peer.nextBurst(at: monotonicSeconds(), echoDelay: echoDelay) { try link.transmit(burst) }
            // Devices and servers may start playing late: our echo can come until the last
            // burst has left and been captured.
            if !link.isIdle { peer.holdEchoes(until: monotonicSeconds() + echoDelay + link.secondsPerByte) }
            try link.poll(timeout: 0.02)
            let now = monotonicSeconds()
            if !link.bytes.isEmpty {
                // Dated when heard, not when decoded: our own echo must meet its deadline
                // however long the receiver looked ahead.
                for d in peer.receive(link.bytes, at: link.heardAt) {
                    for b in d.bytes { try output.put(b) }
                    counters.received += d.bytes.count
                }
                try output.flush()
            }
            switch stall.check(
                acknowledged: peer.sender.statistics.payloadBytes, unacknowledged: peer.unacknowledgedBytes,
                inputOpen: inputOpen, at: now)
            {
            case .waiting: break
            case .giveUp: break loop
            case .report:
                Diagnostics.info(
                    "reliable link: \(peer.unacknowledgedBytes) bytes not acknowledged for \(Int(Self.stallSeconds)) s; "
                        + "still retrying (is the far end running with --reliable?)")
            }
        }
        counters.echoed = peer.echoesDropped
        try link.finish(tail: tail)
        let s = peer.sender.statistics
        let r = peer.receiver.statistics
        let summary =
            "reliable link: \(s.payloadBytes) bytes acknowledged, \(s.packetsSent) packets sent, \(s.retransmissions) retransmitted, "
            + "\(s.timeouts) timeouts; \(r.payloadBytes) bytes delivered, \(r.duplicates) duplicates, \(peer.damagedPackets) damaged packets, "
            + "\(r.acks) ACKs sent, \(peer.echoesDropped) echoed packets dropped; \(link.counters)"
        if peer.unacknowledgedBytes > 0 {
            if reporter.verbose { Diagnostics.info(summary) }
            throw .runtime(
                "reliable link: \(peer.unacknowledgedBytes) bytes written were never acknowledged by the far end and may be lost"
            )
        }
        return (counters, summary)
    }
}

/// A reliable link that stops acknowledging is said once per stall; after the input has
/// ended (term's Ctrl-D) waiting has no one to wait for, so it is given up.
struct StallWatch {
    enum Action { case waiting, report, giveUp }
    private var progressAt: Double
    private var acknowledged = 0
    private var reported = false

    init(since now: Double) { progressAt = now }

    /// What to do at `now`, given the payload bytes acknowledged so far and those still
    /// unacknowledged.
    mutating func check(acknowledged bytes: Int, unacknowledged: Int, inputOpen: Bool, at now: Double) -> Action {
        if bytes != acknowledged || unacknowledged == 0 {
            acknowledged = bytes
            progressAt = now
            reported = false
            return .waiting
        }
        guard now - progressAt >= ReliableBridge.stallSeconds else { return .waiting }
        if !inputOpen { return .giveUp }
        if reported { return .waiting }
        reported = true
        return .report
    }
}
