/// Throughput of the reliable link on a simulated full-duplex path (``DuplexLink``), for a
/// table of far ends and byte error rates (`softmodem bench link`, docs/protocols.md).
public enum LinkThroughput {
    /// One measured transfer.
    public struct Row: Sendable, Equatable {
        /// The far end's largest payload, and whether it keeps packets after a gap and repairs.
        public var farEnd: LinkCapabilities
        /// Chance per byte of arriving damaged, both ways.
        public var corruptByte: Double
        /// Payload bytes acknowledged a second over the line's bytes a second (8N1).
        public var efficiency: Double
        /// Payload bytes a second.
        public var bytesPerSecond: Double
        /// Data packets sent again, and all data packets sent.
        public var retransmissions: Int
        /// All data packets sent, first copies and retransmissions.
        public var packets: Int
        /// The payload size the sender settled on, and whether the transfer finished.
        public var finalPayload: Int
        /// True when everything was acknowledged within the time limit.
        public var finished: Bool
    }

    /// Sends `bytes` pseudo-random bytes to `farEnd` at `baud` with each direction damaging
    /// `corruptByte` of its bytes and 0.1 s of latency; `seed` fixes the damage.
    public static func measure(
        farEnd: LinkCapabilities, corruptByte: Double, bytes: Int = 20_000, baud: Double = 1225, seed: UInt64 = 1
    ) -> Row {
        var random = SplitMix64(seed: seed ^ 0xF11E)
        var sender = ReliableSender(configuration: LinkConfiguration(baud: baud, turnaround: 0.15))
        sender.send((0..<bytes).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let receiver = ReliableReceiver(
            configuration: LinkConfiguration(capabilities: farEnd, baud: baud, turnaround: 0.04))
        let line = LineImpairments(corruptByte: corruptByte)
        var link = DuplexLink(sender: sender, receiver: receiver, forward: line, backward: line, seed: seed)
        // Long enough for a line that carries a tenth of its rate.
        let finished = link.run(limit: 100 * Double(bytes) / (baud / 10)) { _ in }
        let s = link.sender.statistics
        return Row(
            farEnd: farEnd, corruptByte: corruptByte, efficiency: link.efficiency,
            bytesPerSecond: Double(s.payloadBytes) / max(link.now, 1e-9), retransmissions: s.retransmissions,
            packets: s.packetsSent, finalPayload: s.packetPayload, finished: finished)
    }

    /// The far ends of the table: hosts that accept at most 20, 64, 128 or 243 payload bytes
    /// (selective, repairing), and the board's sketch (8 packets of 64 bytes, selective, no repair).
    public static let farEnds: [LinkCapabilities] =
        [20, 64, 128, 243].map {
            LinkCapabilities(window: 32, maxPayload: $0, fullDuplex: true, selective: true, corrects: true)
        } + [.arduinoSketch]

    /// The byte error rates of the table.
    public static let corruptBytes = [0, 0.001, 0.003, 0.01, 0.02]
}
