/// Payload handed up by the receiving end: the next piece of a message, in order.
public struct LinkDelivery: Sendable, Equatable {
    public var bytes: [UInt8]
    /// True on the last piece of a message.
    public var endOfMessage: Bool

    public init(bytes: [UInt8], endOfMessage: Bool) {
        self.bytes = bytes
        self.endOfMessage = endOfMessage
    }
}

/// The receiving end of the reliable link: checks each packet's CRC, delivers data packets
/// exactly once and in order, and acknowledges cumulatively.
///
/// Driven like ``ReliableSender``: feed bytes with ``receive(_:at:)``, transmit what
/// ``nextBurst(at:)`` returns. The ACK waits ``LinkConfiguration/turnaround`` after the
/// last packet so it does not collide with the rest of the sender's burst.
public struct ReliableReceiver: Sendable {
    public let configuration: LinkConfiguration
    public private(set) var statistics = LinkStatistics()
    private var expected: UInt16 = 0
    private var ackDue: Double?
    private var parser = LinkPacketParser()

    public init(configuration: LinkConfiguration = LinkConfiguration()) { self.configuration = configuration }

    /// When an acknowledgement is due, if one is.
    public var nextDeadline: Double? { ackDue }

    /// Bytes held by the packet parser (bounded by the largest packet).
    public var bufferedBytes: Int { parser.bufferedBytes }

    /// Feeds bytes from the sender; returns what they deliver, in order.
    public mutating func receive(_ bytes: some Sequence<UInt8>, at now: Double) -> [LinkDelivery] {
        var out: [LinkDelivery] = []
        for b in bytes {
            guard let p = parser.push(b) else { continue }
            guard p.kind != .ack else { continue }
            ackDue = now + configuration.turnaround
            guard p.seq == expected else {
                statistics.duplicates += 1
                continue
            }
            expected &+= 1
            statistics.payloadBytes += p.payload.count
            if p.kind == .dataEnd { statistics.messages += 1 }
            out.append(LinkDelivery(bytes: p.payload, endOfMessage: p.kind == .dataEnd))
        }
        statistics.damagedPackets = parser.damagedPackets
        return out
    }

    /// The acknowledgement to transmit now, if one is due.
    public mutating func nextBurst(at now: Double) -> [UInt8]? {
        guard let due = ackDue, now >= due else { return nil }
        ackDue = nil
        let bytes = LinkPacket(kind: .ack, seq: expected).wireBytes
        statistics.acks += 1
        statistics.bursts += 1
        statistics.wireBytes += bytes.count
        return bytes
    }
}
