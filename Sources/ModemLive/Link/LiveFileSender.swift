public import ModemFraming

/// How a file sent over the live link ended.
public struct FileSendReport: Sendable, Equatable {
    /// What ended the transfer.
    public enum Outcome: Sendable, Equatable {
        /// The receiver acknowledged every byte.
        case delivered
        /// The timeout passed first.
        case timedOut
        /// A stop was requested first.
        case interrupted
    }

    /// Whether every byte got through, or what stopped the transfer first.
    public var outcome: Outcome
    /// Header and content: what had to be acknowledged.
    public var totalBytes: Int
    /// The sending end's counters: packets, retransmissions, timeouts, payload acknowledged.
    public var statistics: LinkStatistics
    /// Seconds from the start (the link's settling included) to the end.
    public var elapsed: Double
}

extension LiveLink {
    /// Sends a file as two link messages (its ``FileHeader`` and its content) with a
    /// ``ReliableSender`` on this link, on the context's clock, and lets the link finish.
    ///
    /// The link settles first (``settle()``): the first ACK timeout is the far end's
    /// `turnaround` plus the output delay measured then, announced as
    /// ``LiveNotice/reliableLinkStarted(pathDelay:ackTimeout:)``; later ones follow the
    /// measured round trip. The opening exchange's result is announced as
    /// ``LiveNotice/reliableLinkAgreed(_:fullDuplex:)``.
    /// `timeout` (seconds, nil: none) bounds the whole transfer.
    public mutating func sendFile(
        _ bytes: [UInt8], name: String, baud: Double, preamble: Int, turnaround: Double, timeout: Double?
    ) throws(LiveError) -> FileSendReport {
        let clock = context.clock
        let header = FileHeader(name: name, size: UInt64(bytes.count), crc: CRC32.update(0, bytes))
        start()
        let started = clock.now()
        let pathDelay = try settle()
        let config = LinkConfiguration(baud: baud, preambleBits: preamble, turnaround: turnaround + pathDelay)
        context.notices.notice(.reliableLinkStarted(pathDelay: pathDelay, ackTimeout: config.ackTimeout))
        var sender = ReliableSender(configuration: config)
        var announcer = AgreementNotices()
        sender.send(header.encoded)
        sender.send(bytes)
        var outcome = FileSendReport.Outcome.delivered
        while !sender.isIdle {
            if context.stop.isRequested {
                outcome = .interrupted
                break
            }
            // A resting line that carries a signal (HiJack's power) stays fed between bursts,
            // and a device that failed while idle is noticed.
            try pump()
            let now = clock.now()
            if let timeout, now - started >= timeout {
                outcome = .timedOut
                break
            }
            sender.lineQueued(until: now + queuedAhead)
            if let burst = sender.nextBurst(at: now) {
                try transmit(burst)
                continue
            }
            try poll(timeout: 0.02)
            if !self.bytes.isEmpty { sender.receive(self.bytes, at: self.heardAt) }
            announcer.update(sender, context.notices)
        }
        try finish()
        return FileSendReport(
            outcome: outcome, totalBytes: bytes.count + header.encoded.count, statistics: sender.statistics,
            elapsed: clock.now() - started)
    }
}
