public import ModemFraming

/// Where the files a link receives go (a directory, memory). The receiving loop calls it in
/// order: ``begin(_:)``, ``write(_:)`` any number of times, then ``commit(_:)`` when the
/// content matched its header or ``abandon(_:)`` when it did not or the link ended inside it.
public protocol FileStore: AnyObject {
    /// A file begins.
    func begin(_ header: FileHeader) throws(FileStoreError)
    /// The next piece of its content.
    func write(_ bytes: [UInt8]) throws(FileStoreError)
    /// Its content matched the header's size and CRC-32: make it the file.
    func commit(_ header: FileHeader) throws(FileStoreError)
    /// Its content did not match, or the link ended inside it: keep or drop what was written.
    func abandon(_ header: FileHeader)
}

/// Why a ``FileStore`` could not take a file: the path and the system's reason.
public struct FileStoreError: Error, Sendable, Equatable {
    /// The file the store could not create, write or rename.
    public var path: String
    /// The system's reason (`strerror(3)`), for a one-line message.
    public var reason: String

    /// A failure on `path` for `reason`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// How a live file reception ended.
public struct FileReceiveReport: Sendable, Equatable {
    /// What ended the reception.
    public enum Outcome: Sendable, Equatable {
        /// At least one file arrived whole and the sender then went quiet.
        case received
        /// The timeout passed first.
        case timedOut
        /// A stop was requested first.
        case interrupted
    }

    /// What ended the reception.
    public var outcome: Outcome
    /// The files received whole, in order.
    public var files: [FileHeader]
    /// Why the stream did not end with whole files: a file left incomplete, or none at all
    /// (``FileAssembly/finish()``); nil when it did.
    public var unfinished: FileAssembly.Failure?
    /// The receiving end's counters: payload, messages, damaged packets, duplicates, ACKs.
    public var statistics: LinkStatistics
    /// Seconds from the start to the end.
    public var elapsed: Double
    /// Seconds from the start of the first packet delivered to the end of the last (0 when
    /// none was): the time the transfer took, without the wait before it or the lingering after.
    public var receivingSeconds: Double = 0
    /// Bytes a second the line carries (the modem's characters, framing bits included).
    public var lineBytesPerSecond: Double = 0

    /// Payload delivered over ``receivingSeconds`` (a rate of 0 when nothing was).
    public var rate: PayloadRate {
        PayloadRate(bytes: statistics.payloadBytes, seconds: receivingSeconds, lineBytesPerSecond: lineBytesPerSecond)
    }
    /// Payload bytes delivered per second of ``receivingSeconds`` (0 when nothing was).
    public var bytesPerSecond: Double { rate.bytesPerSecond }
    /// ``bytesPerSecond`` as a share of the line's rate (0 to about 1).
    public var efficiency: Double { rate.efficiency }
}

extension LiveLink {
    /// Receives files sent with ``sendFile(_:name:baud:preamble:turnaround:timeout:)``:
    /// acknowledges packets with a ``ReliableReceiver`` on the context's clock and hands the
    /// content to `store` (``FileAssembly``). Each completed file is announced as
    /// ``LiveNotice/fileReceived(_:)``.
    ///
    /// After a file is complete it keeps answering until the sender has been quiet for long
    /// enough to have retransmitted a full burst twice, because the sender repeats its last
    /// packet until one of our ACKs gets through. `timeout` (seconds, nil: none) bounds the
    /// whole reception. A file whose content does not match its header, or a stream that is
    /// not files, ends it with ``LiveError/fileTransfer(_:)``; a failing store with
    /// ``LiveError/fileStore(_:)``. Either way the file in progress is abandoned, as it is
    /// when the reception ends inside it (the report's ``FileReceiveReport/unfinished`` says so).
    public mutating func receiveFiles(
        into store: some FileStore, baud: Double, turnaround: Double, timeout: Double?
    ) throws(LiveError) -> FileReceiveReport {
        let clock = context.clock
        let config = LinkConfiguration(baud: baud, turnaround: turnaround)
        var receiver = ReliableReceiver(configuration: config)
        var files = FileAssembly()
        var current: FileHeader?
        // Two retransmissions of the largest packet, and the sender's timeout backing off once.
        let linger =
            2 * config.airtime(bytes: config.maxPayload + LinkPacket.wireOverhead) + 4 * config.ackTimeout + 0.5
        start()
        let started = clock.now()
        var lastAck = started
        var firstPacketStart: Double?
        var lastDelivery = started
        var outcome = FileReceiveReport.Outcome.interrupted
        do throws(LiveError) {
            while !context.stop.isRequested {
                let now = clock.now()
                if !files.completed.isEmpty && !files.isReceiving && now - lastAck >= linger {
                    outcome = .received
                    break
                }
                if let timeout, now - started >= timeout {
                    outcome = .timedOut
                    break
                }
                try poll(timeout: 0.02)
                if !bytes.isEmpty {
                    for d in receiver.receive(bytes, at: heardAt) {
                        // The first packet began its airtime before it was heard whole.
                        firstPacketStart =
                            firstPacketStart ?? heardAt - config.airtime(bytes: d.bytes.count + LinkPacket.wireOverhead)
                        lastDelivery = heardAt
                        if let done = try store.take(d, through: &files, current: &current) {
                            context.notices.notice(.fileReceived(done))
                        }
                    }
                }
                if let ack = receiver.nextBurst(at: clock.now()) {
                    try transmit(ack)
                    lastAck = clock.now()
                }
            }
            try finish()
        } catch {
            if let current { store.abandon(current) }
            throw error
        }
        if let current { store.abandon(current) }
        var unfinished: FileAssembly.Failure?
        do { try files.finish() } catch { unfinished = error }
        return FileReceiveReport(
            outcome: outcome, files: files.completed, unfinished: unfinished, statistics: receiver.statistics,
            elapsed: clock.now() - started, receivingSeconds: firstPacketStart.map { lastDelivery - $0 } ?? 0,
            lineBytesPerSecond: 1 / secondsPerByte)
    }
}

extension FileStore {
    /// One link delivery through `assembly` into this store: a file begun, its content, its
    /// commit. `current` is the file in progress (to abandon if the reception ends inside
    /// it). Returns the file this delivery completed, if any. Both ends of `receive`, live
    /// and from recordings, go through here.
    public func take(
        _ delivery: LinkDelivery, through assembly: inout FileAssembly, current: inout FileHeader?
    ) throws(LiveError) -> FileHeader? {
        let events: [FileAssembly.Event]
        do { events = try assembly.add(delivery) } catch { throw .fileTransfer(error) }
        var completed: FileHeader?
        do {
            for event in events {
                switch event {
                case .started(let h):
                    try begin(h)
                    current = h
                case .content(let bytes):
                    try write(bytes)
                case .completed(let h):
                    current = nil
                    try commit(h)
                    completed = h
                }
            }
        } catch {
            throw .fileStore(error)
        }
        return completed
    }
}
