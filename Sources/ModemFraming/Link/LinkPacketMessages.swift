extension LinkPacket: FramedMessage {
    public var raw: [UInt8] { wireBytes }
    public var fields: [MessageField] {
        [
            MessageField("kind", .string(kindName)), MessageField("seq", .int(Int(seq))),
            MessageField("payload", .bytes(payload)),
        ]
    }
    public var description: String {
        kind == .ack ? "ack next \(seq)" : "\(kindName) #\(seq) \(payload.count) bytes: \(printable(payload))"
    }
    private var kindName: String {
        switch kind {
        case .data: "data"
        case .dataEnd: "data-end"
        case .ack: "ack"
        }
    }
}

/// Reliable-link packets as a ``MessageParser`` (for `decode --protocol link`); damaged
/// packets count as discarded bytes.
public struct LinkPacketMessageParser: SingleMessageParser {
    public typealias Message = LinkPacket
    private var parser = LinkPacketParser()
    public init() {}
    public var discardedBytes: Int { parser.discardedBytes }
    public var bufferedBytes: Int { parser.bufferedBytes }
    public mutating func push(_ byte: UInt8, at time: Double) -> LinkPacket? { parser.push(byte) }
}
