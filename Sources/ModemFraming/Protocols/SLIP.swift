/// A SLIP packet (RFC 1055): END 0xC0 delimits, ESC 0xDB escapes; ESC ESC_END (0xDC) stands
/// for 0xC0 and ESC ESC_ESC (0xDD) for 0xDB.
public struct SLIPPacket: FramedMessage, Equatable {
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

    public var fields: [MessageField] { [MessageField("payload", .bytes(payload))] }
    public var description: String { "SLIP \(payload.count) bytes: \(printable(payload))" }
}

/// Parses SLIP. Empty packets are ignored; a packet with an invalid escape or longer than
/// ``SLIPPacket/maximumPayload`` is discarded up to the next END.
public struct SLIPParser: SingleMessageParser {
    public typealias Message = SLIPPacket
    public private(set) var discardedBytes = 0
    private var payload: [UInt8] = []
    private var rawCount = 0
    private var escaping = false
    private var broken = false

    public init() {}
    public var bufferedBytes: Int { payload.count }

    public mutating func push(_ byte: UInt8, at time: Double) -> SLIPPacket? {
        if byte == SLIPPacket.end {
            defer {
                payload.removeAll(keepingCapacity: true)
                rawCount = 0
                escaping = false
                broken = false
            }
            if broken || escaping {
                discardedBytes += rawCount + 1
                return nil
            }
            return payload.isEmpty ? nil : SLIPPacket(payload: payload)
        }
        rawCount += 1
        if broken { return nil }
        if escaping {
            escaping = false
            switch byte {
            case SLIPPacket.escEnd: payload.append(SLIPPacket.end)
            case SLIPPacket.escEsc: payload.append(SLIPPacket.esc)
            default: broken = true
            }
        } else if byte == SLIPPacket.esc {
            escaping = true
        } else {
            payload.append(byte)
        }
        if payload.count > SLIPPacket.maximumPayload {
            broken = true
            payload.removeAll(keepingCapacity: true)
        }
        return nil
    }
}
