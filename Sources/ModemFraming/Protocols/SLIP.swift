/// A SLIP packet (RFC 1055): END 0xC0 delimits, ESC 0xDB escapes; ESC ESC_END (0xDC) stands
/// for 0xC0 and ESC ESC_ESC (0xDD) for 0xDB.
public struct SLIPPacket: PayloadPacket, Equatable {
    /// "SLIP", the name that starts this packet's text form.
    public static let protocolName = "SLIP"
    /// The special bytes: END (0xC0) delimits packets and ESC (0xDB) escapes; after ESC,
    /// ESC_END (0xDC) stands for END and ESC_ESC (0xDD) for ESC.
    public static let end: UInt8 = 0xC0, esc: UInt8 = 0xDB, escEnd: UInt8 = 0xDC, escEsc: UInt8 = 0xDD
    /// The longest payload the parser accepts, in bytes after unescaping (the 1006-byte limit
    /// RFC 1055 reports for Berkeley SLIP); longer packets are discarded.
    public static let maximumPayload = 1006

    /// The packet's bytes, unescaped and without END delimiters.
    public var payload: [UInt8]
    /// A packet carrying `payload`; its length is not checked here.
    public init(payload: [UInt8]) { self.payload = payload }

    /// END, the escaped payload, END (the leading END flushes line noise at the receiver).
    public var raw: [UInt8] { Self.encode(payload) }

    /// Frames `payload` for the wire: END, the payload with each END and ESC escaped, END.
    /// No length check; an empty payload gives END END.
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
    /// This parser completes ``SLIPPacket`` messages.
    public typealias Message = SLIPPacket
    private var packet = PendingPacket(cap: SLIPPacket.maximumPayload)
    private var escaping = false
    /// Bytes of packets dropped for a bad escape or an over-long payload, their END included.
    public private(set) var discardedBytes = 0
    /// A parser with no packet in progress.
    public init() {}
    /// Unescaped payload bytes held for the packet in progress (0 once it is known to be broken).
    public var bufferedBytes: Int { packet.bytes.count }

    /// Pushes one byte of a SLIP stream; a packet ends at END (0xC0), and empty or broken
    /// packets give nil. `time` is ignored.
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
