extension LinkPacket: FramedMessage {
    /// The packet as sent alone, without parity: 0x00, the COBS-coded packet, 0x00.
    public var raw: [UInt8] { wireBytes }
    /// "kind" ("data", "data-end", "ack" or "hello"), "seq" and "payload".
    public var fields: [MessageField] {
        [
            MessageField("kind", .string(kindName)), MessageField("seq", .int(Int(seq))),
            MessageField("payload", .bytes(payload)),
        ]
    }
    /// An ack's next sequence number and those it holds beyond, a hello's capabilities, or
    /// a data packet's sequence number and payload.
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

/// Reliable-link packets as a ``MessageParser`` (for `decode --protocol link`): bytes of a
/// broken COBS frame count as discarded; a frame that decodes but fails its length or CRC
/// check is dropped without being counted there.
public struct LinkPacketMessageParser: SingleMessageParser {
    /// This parser completes ``LinkPacket`` messages.
    public typealias Message = LinkPacket
    private var parser = LinkPacketParser()
    /// A parser with no packet in progress.
    public init() {}
    /// Bytes the COBS layer dropped (bad COBS or over-long); a frame that decodes but fails its
    /// length or CRC check is not counted here.
    public var discardedBytes: Int { parser.discardedBytes }
    /// Coded bytes held since the last 0x00.
    public var bufferedBytes: Int { parser.bufferedBytes }
    /// Pushes one byte; at a 0x00 returns the packet it ends if the CRC holds, repaired by
    /// parity if need be. `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double) -> LinkPacket? { parser.push(byte) }
}
