extension LinkPacket: FramedMessage {
    public var raw: [UInt8] { wireBytes }
    public var fields: [MessageField] {
        [
            MessageField("kind", .string(kindName)), MessageField("seq", .int(Int(seq))),
            MessageField("payload", .bytes(payload)),
        ]
    }
    public var description: String {
        switch kind {
        case .ack: selectiveBitmap == 0 ? "ack next \(seq)" : "ack next \(seq) held \(heldList)"
        case .hello:
            LinkCapabilities.fromHello(payload).map { h in
                "hello\(h.request ? " request" : ""): window \(h.capabilities.window), payload \(h.capabilities.maxPayload), "
                    + (h.capabilities.fullDuplex ? "full duplex" : "half duplex")
                    + (h.capabilities.selective ? ", selective" : ", go-back-N")
            } ?? "hello (unknown version)"
        default: "\(kindName) #\(seq) \(payload.count) bytes: \(printable(payload))"
        }
    }
    private var heldList: String {
        (0..<32).filter { selectiveBitmap & (1 << UInt32($0)) != 0 }.map { "\(seq &+ 1 &+ UInt16($0))" }
            .joined(separator: ",")
    }
    private var kindName: String {
        switch kind {
        case .data: "data"
        case .dataEnd: "data-end"
        case .ack: "ack"
        case .hello: "hello"
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
