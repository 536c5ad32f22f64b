/// A SLIP packet (RFC 1055): END 0xC0 delimits, ESC 0xDB escapes; ESC ESC_END (0xDC) stands
/// for 0xC0 and ESC ESC_ESC (0xDD) for 0xDB.
public struct SLIPPacket: PayloadPacket, Equatable {
    public static let protocolName = "SLIP"
    public static let end: UInt8 = 0xC0, esc: UInt8 = 0xDB, escEnd: UInt8 = 0xDC, escEsc: UInt8 = 0xDD
    public static let maximumPayload = 1006

    public var payload: [UInt8]
    public init(payload: [UInt8]) { self.payload = payload }

    /// END, the escaped payload, END (the leading END flushes line noise at the receiver).
    public var raw: [UInt8] { Self.encode(payload) }

    public static func encode(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [end]
        for b in payload {
            switch b {
            case end: out += [esc, escEnd]
            case esc: out += [esc, escEsc]
            default: out.append(b)
            }
        }
        out.append(end)
        return out
    }
}

/// Parses SLIP. Empty packets are ignored; a packet with an invalid escape or longer than
/// ``SLIPPacket/maximumPayload`` is discarded up to the next END.
public struct SLIPParser: SingleMessageParser {
    public typealias Message = SLIPPacket
    private var packet = PendingPacket(cap: SLIPPacket.maximumPayload)
    private var escaping = false
    public private(set) var discardedBytes = 0
    public init() {}
    public var bufferedBytes: Int { packet.bytes.count }

    public mutating func push(_ byte: UInt8, at time: Double) -> SLIPPacket? {
        if byte == SLIPPacket.end {
            // A packet that ends inside an escape is invalid.
            if escaping { packet.breakPacket() }
            escaping = false
            guard let payload = packet.end(discarded: &discardedBytes), !payload.isEmpty else { return nil }
            return SLIPPacket(payload: payload)
        }
        if escaping {
            escaping = false
            switch byte {
            case SLIPPacket.escEnd: packet.append(SLIPPacket.end)
            case SLIPPacket.escEsc: packet.append(SLIPPacket.esc)
            default:
                packet.skip()
                packet.breakPacket()
            }
        } else if byte == SLIPPacket.esc {
            escaping = true
            packet.skip()
        } else {
            packet.append(byte)
        }
        return nil
    }
}
