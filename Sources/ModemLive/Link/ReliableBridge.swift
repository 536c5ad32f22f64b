public import ModemDecoding
public import ModemFraming

/// The reliable link for a full-duplex session: the input's bytes travel as reliable-link
/// packets (sequence numbers, CRC-32, acknowledgements, retransmission) and the far end's
/// packets are delivered to the output exactly once and in order. The far end is another
/// bridge running the link, or a board running the reliable-link sketch (which only
/// receives).
///
/// Bytes not yet acknowledged are held, and while more than ``backlogLimit`` wait the input
/// is not read: a program writing faster than the link carries blocks in `write`, as on a
/// slow serial port. Nothing is ever dropped: when the far end stops acknowledging, a
/// ``LiveNotice/reliableLinkStalled(unacknowledged:seconds:)`` says so and the bridge keeps
/// trying; bytes still unacknowledged when it stops are counted in the report's
/// ``ReliableLinkReport/unacknowledgedBytes``.
public struct ReliableBridge: DuplexLoop {
    /// The devices, clock, stop request and notices the bridge runs on.
    public let context: LiveContext
    /// The decoding report (and, through its verbosity, the observers).
    public let reporter: any DecodeReporting
    /// Seconds after our own audio has played that its echo may still arrive.
    public let echoGuard: Double
    /// A device that stops delivering audio or goes away is waited for.
    public var waitsForDevice = false
    /// The far end's capabilities when it states none (a board running the first link
    /// version); nil opens the link with a hello and waits for the far end's.
    public var farEnd: LinkCapabilities?
    /// Seconds the far end takes to answer, beside the measured output delay.
    public var turnaround = Self.defaultTurnaround
    /// Seconds the far end takes to answer when nobody says otherwise (the board's sketch
    /// waits 40 ms; a sound server adds the rest).
    public static let defaultTurnaround = 0.25
    /// Unacknowledged bytes beyond which the input waits.
    public static let backlogLimit = 4096
    /// Seconds without progress after which a stalled link is reported (and, once the input
    /// has ended, given up).
    public static let stallSeconds = 20.0

    /// A bridge with the defaults: a device that goes away ends it, the link opens with a hello,
    /// and the far end answers within ``defaultTurnaround``.
    public init(context: LiveContext, reporter: any DecodeReporting, echoGuard: Double) {
        self.context = context
        self.reporter = reporter
        self.echoGuard = echoGuard
    }

    /// Runs the link until a stop request, `tick` returning false, or the input's end once every byte is
    /// acknowledged (or after ``stallSeconds`` without progress); the far end's bytes go to `output`
    /// once each, in order, and `tail` seconds of resting line end the session. Throws when a device,
    /// the input or the output fails (see ``waitsForDevice``).
    public func run<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, tail: Double, input: inout some ByteInput, output: some BridgePort,
        tick: () -> Bool
    ) throws(LiveError) -> BridgeReport {
        let clock = context.clock
        var link = try LiveLink(factory, maker, context: context, waitsForDevice: waitsForDevice, reporter: reporter)
        link.start()
        _ = tick()
        let pathDelay = try link.settle()
        // LinkConfiguration counts 10 bits a byte; this keeps airtimes right for any modem.
        let baud = 10 / link.secondsPerByte
        let sending = LinkConfiguration(baud: baud, turnaround: turnaround + pathDelay)
        var peer = ReliablePeer(
            sending: sending, receiving: LinkConfiguration(baud: baud, turnaround: turnaround), farEnd: farEnd)
        context.notices.notice(.reliableLinkStarted(pathDelay: pathDelay, ackTimeout: sending.ackTimeout))
        var announcer = AgreementNotices()
        var report = BridgeReport()
        var inputOpen = true
        var stall = StallWatch(since: clock.now())
        var sendingSeconds = 0.0
        var lastTurn = clock.now()
        loop: while !context.stop.isRequested && (inputOpen || peer.unacknowledgedBytes > 0) {
            try link.pump()
            if !tick() { break }
            if inputOpen && peer.unacknowledgedBytes < Self.backlogLimit {
                switch try input.read(waiting: 0) {
                case .end: inputOpen = false
                case .nothing: break
                case .bytes(let got): peer.send(Array(input.buffer[0..<got]))
                }
            }
            let echoDelay = link.outputDelay + link.captureDelay + echoGuard
            peer.lineQueued(until: clock.now() + link.queuedAhead)
            if let burst = peer.nextBurst(at: clock.now(), echoDelay: echoDelay) { try link.transmit(burst) }
            // Devices and servers may start playing late: our echo can come until the last
            // burst has left and been captured.
            if !link.isIdle { peer.holdEchoes(until: clock.now() + echoDelay + link.secondsPerByte) }
            try link.poll(timeout: 0.02)
            let now = clock.now()
            if peer.unacknowledgedBytes > 0 { sendingSeconds += now - lastTurn }
            lastTurn = now
            if !link.bytes.isEmpty {
                // Dated when heard, not when decoded: our own echo must meet its deadline
                // however long the receiver looked ahead.
                for d in peer.receive(link.bytes, at: link.heardAt) {
                    for b in d.bytes { try output.put(b) }
                    report.received += d.bytes.count
                }
                try output.flush()
            }
            announcer.update(peer.sender, context.notices)
            switch stall.check(
                acknowledged: peer.sender.statistics.payloadBytes, unacknowledged: peer.unacknowledgedBytes,
                inputOpen: inputOpen, at: now)
            {
            case .waiting: break
            case .giveUp: break loop
            case .report:
                context.notices.notice(
                    .reliableLinkStalled(unacknowledged: peer.unacknowledgedBytes, seconds: Self.stallSeconds))
            }
        }
        report.echoed = peer.echoesDropped
        try link.finish(tail: tail)
        report.decoded = link.decoded
        report.capture = link.captureCounters
        report.playback = link.playbackCounters
        var received = peer.receiver.statistics
        received.repairedBytes = peer.repairedBytes
        report.link = ReliableLinkReport(
            sent: peer.sender.statistics, received: received, damagedPackets: peer.damagedPackets,
            echoesDropped: peer.echoesDropped, unacknowledgedBytes: peer.unacknowledgedBytes,
            sendingSeconds: sendingSeconds, lineBytesPerSecond: 1 / link.secondsPerByte)
        return report
    }
}

/// A reliable link that stops acknowledging is said once per stall; after the input has
/// ended (term's Ctrl-D) waiting has no one to wait for, so it is given up.
public struct StallWatch: Sendable {
    /// Keep waiting, report the stall (once per stall), or give up (the input has ended).
    public enum Action: Sendable { case waiting, report, giveUp }
    private var progressAt: Double
    private var acknowledged = 0
    private var reported = false

    /// Starts watching at `now` (clock seconds), which counts as progress.
    public init(since now: Double) { progressAt = now }

    /// What to do at `now`, given the payload bytes acknowledged so far and those still
    /// unacknowledged.
    public mutating func check(acknowledged bytes: Int, unacknowledged: Int, inputOpen: Bool, at now: Double)
        -> Action
    {
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
