/// One packet of the reliable link.
///
/// Layout before framing: `kind`, sequence number (16 bits, little-endian), payload length,
/// payload, CRC-32 (``CRC32``, little-endian) over everything before it. On the wire each
/// packet is COBS-coded between two 0x00 delimiters, so a receiver resynchronises at the
/// next zero byte after any damage. Overhead: 11 bytes per packet.
public struct LinkPacket: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        /// A segment of a message; `seq` counts segments.
        case data = 0x01
        /// The last segment of a message.
        case dataEnd = 0x81
        /// Cumulative acknowledgement: `seq` is the next segment the receiver expects.
        case ack = 0x02
    }

    public static let headerSize = 4
    public static let crcSize = 4
    /// Bytes a packet adds to its payload on the wire (header, CRC, COBS code, 2 delimiters),
    /// valid for payloads under 244 bytes.
    public static let wireOverhead = headerSize + crcSize + 1 + 2
    /// The longest payload: the packet before framing then stays one COBS block (under 254
    /// bytes), so ``wireOverhead`` holds.
    public static let maximumPayload = 243

    public var kind: Kind
    public var seq: UInt16
    public var payload: [UInt8]

    public init(kind: Kind, seq: UInt16, payload: [UInt8] = []) {
        self.kind = kind
        self.seq = seq
        self.payload = payload
    }

    /// The packet as sent: 0x00, COBS(packet), 0x00.
    public var wireBytes: [UInt8] {
        var p: [UInt8] = [kind.rawValue, UInt8(seq & 0xFF), UInt8(seq >> 8), UInt8(payload.count)]
        p += payload
        let c = CRC32.checksum(p)
        p += [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF), UInt8(c >> 24)]
        return [0] + COBSPacket.encode(p) + [0]
    }

    /// Decodes a COBS-decoded packet; nil if the length, kind or CRC is wrong.
    public static func decode(_ p: [UInt8]) -> LinkPacket? {
        guard p.count >= headerSize + crcSize, let kind = Kind(rawValue: p[0]) else { return nil }
        let length = Int(p[3])
        guard p.count == headerSize + length + crcSize else { return nil }
        let body = p[0..<(headerSize + length)]
        let c = CRC32.checksum(body)
        let t = headerSize + length
        let got = UInt32(p[t]) | UInt32(p[t + 1]) << 8 | UInt32(p[t + 2]) << 16 | UInt32(p[t + 3]) << 24
        guard c == got else { return nil }
        if kind == .ack && length != 0 { return nil }
        return LinkPacket(kind: kind, seq: UInt16(p[1]) | UInt16(p[2]) << 8, payload: Array(p[headerSize..<t]))
    }
}

/// Turns received bytes into link packets; counts damaged ones.
public struct LinkPacketParser: Sendable {
    private var cobs = COBSParser()
    /// Frames that arrived but failed COBS, length or CRC checks.
    public private(set) var damagedPackets = 0
    public init() {}

    public var bufferedBytes: Int { cobs.bufferedBytes }
    public var discardedBytes: Int { cobs.discardedBytes }

    public mutating func push(_ byte: UInt8) -> LinkPacket? {
        let before = cobs.discardedBytes
        guard let frame = cobs.push(byte, at: 0) else {
            if cobs.discardedBytes != before { damagedPackets += 1 }
            return nil
        }
        guard let p = LinkPacket.decode(frame.payload) else {
            damagedPackets += 1
            return nil
        }
        return p
    }
}
