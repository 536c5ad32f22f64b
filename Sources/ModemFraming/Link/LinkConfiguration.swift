/// What this end of the reliable link states and how it times the line.
///
/// ``capabilities`` is what this end accepts (its hello) and also the most it sends: the
/// sender uses the smaller of its own and the far end's sizes. Timeouts start from airtime
/// (a burst of n bytes takes preamble + 10 n + postamble bit times) and then follow the
/// measured round trip.
public struct LinkConfiguration: Sendable, Equatable {
    /// What this end can take, stated in its hello.
    public var capabilities: LinkCapabilities
    /// Bits per second of the audio link.
    public var baud: Double
    /// Mark bits before and after each burst (the apps send 50 and 7).
    public var preambleBits: Int
    /// Mark bits after each burst, the postamble (default 7).
    public var postambleBits: Int
    /// One-way latency of the audio path and the far end's turnaround (audio buffers,
    /// the sketch noticing the packet), in seconds.
    public var turnaround: Double
    /// Extra wait before a retransmission, in seconds.
    public var margin: Double

    /// Non-finite or negative values fall back to the defaults.
    public init(
        capabilities: LinkCapabilities = .host, baud: Double = 1225, preambleBits: Int = 50, postambleBits: Int = 7,
        turnaround: Double = 0.15, margin: Double = 0.1
    ) {
        self.capabilities = capabilities
        self.baud = baud.isFinite && baud > 0 ? baud : 1225
        self.preambleBits = max(0, preambleBits)
        self.postambleBits = max(0, postambleBits)
        self.turnaround = turnaround.isFinite ? max(0, turnaround) : 0.15
        self.margin = margin.isFinite ? max(0, margin) : 0.1
    }

    /// The largest payload this end sends or accepts.
    public var maxPayload: Int { capabilities.maxPayload }

    /// Seconds on air for a burst of `bytes` bytes (8N1).
    public func airtime(bytes: Int) -> Double { Double(preambleBits + 10 * bytes + postambleBits) / baud }

    /// Bytes of an acknowledgement with its selective bitmap on the wire.
    public static let ackWireBytes = LinkPacket.ack(next: 0, bitmap: 0).wireBytes.count

    /// The first retransmission timeout, before any round trip is measured: the far end's
    /// turnaround, the ACK's airtime and the path back, plus the margin.
    public var ackTimeout: Double { 2 * turnaround + airtime(bytes: Self.ackWireBytes) + margin }
}

/// Counters of one end of the link.
public struct LinkStatistics: Sendable, Equatable {
    /// Data packets transmitted, first copies and retransmissions.
    public var packetsSent = 0
    /// Data packets transmitted again.
    public var retransmissions = 0
    /// Times the acknowledgement did not come in time.
    public var timeouts = 0
    /// Bursts transmitted (data or ACK).
    public var bursts = 0
    /// Bytes transmitted, framing included.
    public var wireBytes = 0
    /// Payload bytes acknowledged (sender) or delivered (receiver), each counted once.
    public var payloadBytes = 0
    /// Messages fully acknowledged (sender) or delivered (receiver).
    public var messages = 0
    /// Packets that arrived damaged beyond repair (CRC, length, COBS).
    public var damagedPackets = 0
    /// Bytes that packets' parity repaired on arrival.
    public var repairedBytes = 0
    /// Valid data packets that were duplicates or out of order, dropped.
    public var duplicates = 0
    /// Acknowledgements received or sent.
    public var acks = 0
    /// Data packets received after a gap and held until it filled (selective repeat).
    public var held = 0
    /// The smoothed round trip (sender; seconds from a packet's end on air to its
    /// acknowledgement), 0 before the first measurement.
    public var roundTrip = 0.0
    /// The payload size the sender uses now (it shrinks as losses rise).
    public var packetPayload = 0
    /// All counters at zero.
    public init() {}
}
