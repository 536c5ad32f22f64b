/// Sizes and timing of the reliable link.
///
/// Defaults fit the Arduino SoftModem at 1225 baud: the board's receive ring holds 31
/// bytes and `write()` blocks for a whole burst, so the link is half-duplex and every
/// burst (all packets in flight) must fit in 31 bytes. Timeouts are derived from airtime:
/// a burst of n bytes takes (preamble + 10 n + postamble) bit times.
public struct LinkConfiguration: Sendable, Equatable {
    /// The far end's receive buffer; the bytes in flight never exceed it.
    public var receiveBuffer: Int
    /// Payload bytes per packet.
    public var maxPayload: Int
    /// Bits per second of the audio link.
    public var baud: Double
    /// Mark bits before and after each burst (the apps send 50 and 7).
    public var preambleBits: Int
    public var postambleBits: Int
    /// One-way latency of the audio path and the far end's turnaround (audio buffers,
    /// the sketch noticing the packet), in seconds.
    public var turnaround: Double
    /// Extra wait before a retransmission, in seconds.
    public var margin: Double

    /// Largest payload for which one packet fits `receiveBuffer`.
    public static func largestPayload(receiveBuffer: Int) -> Int {
        max(1, min(LinkPacket.maximumPayload, receiveBuffer - LinkPacket.wireOverhead))
    }

    public init(
        receiveBuffer: Int = 31, maxPayload: Int? = nil, baud: Double = 1225, preambleBits: Int = 50,
        postambleBits: Int = 7, turnaround: Double = 0.15, margin: Double = 0.1
    ) {
        self.receiveBuffer = max(LinkPacket.wireOverhead + 1, receiveBuffer)
        let largest = Self.largestPayload(receiveBuffer: self.receiveBuffer)
        self.maxPayload = min(largest, max(1, maxPayload ?? largest))
        self.baud = baud.isFinite && baud > 0 ? baud : 1225
        self.preambleBits = max(0, preambleBits)
        self.postambleBits = max(0, postambleBits)
        self.turnaround = turnaround.isFinite ? max(0, turnaround) : 0.15
        self.margin = margin.isFinite ? max(0, margin) : 0.1
    }

    /// Packets per burst: as many full packets as the receive buffer holds (at least 1).
    public var window: Int { max(1, receiveBuffer / (maxPayload + LinkPacket.wireOverhead)) }

    /// Seconds on air for a burst of `bytes` bytes (8N1).
    public func airtime(bytes: Int) -> Double { Double(preambleBits + 10 * bytes + postambleBits) / baud }

    /// Bytes of an acknowledgement on the wire.
    public static let ackWireBytes = LinkPacket(kind: .ack, seq: 0).wireBytes.count

    /// How long the sender waits, after its burst ends, for the acknowledgement:
    /// the far end's turnaround, the ACK's airtime and the path back, plus the margin.
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
    /// Packets that arrived damaged (CRC, length, COBS).
    public var damagedPackets = 0
    /// Valid data packets that were duplicates or out of order, dropped.
    public var duplicates = 0
    /// Acknowledgements received or sent.
    public var acks = 0
    public init() {}
}
