/// One packet of the reliable link.
///
/// Layout before framing: `kind`, sequence number (16 bits, little-endian), payload length,
/// payload, CRC-32 (``CRC32``, little-endian) over everything before it. On the wire each
/// packet is COBS-coded between two 0x00 delimiters, so a receiver resynchronises at the
/// next zero byte after any damage. Overhead: 11 bytes per packet, 10 in a stream of packets
/// that share their delimiters (``stream(_:)``).
public struct LinkPacket: Sendable, Equatable {
    /// What a packet is, from its first byte; any other value makes the packet invalid.
    public enum Kind: UInt8, Sendable {
        /// A segment of a message; `seq` counts segments.
        case data = 0x01
        /// The last segment of a message.
        case dataEnd = 0x81
        /// Cumulative acknowledgement: `seq` is the next segment the receiver expects. A 4-byte
        /// payload, when present, is a selective acknowledgement (``selectiveBitmap``).
        case ack = 0x02
        /// The opening exchange: what the sending end can take (``LinkCapabilities``).
        case hello = 0x03
    }

    /// An acknowledgement: everything before `next` arrived, and bit i of `bitmap` says packet
    /// `next + 1 + i` arrived too (a receiver that holds no packets after a gap sends no bitmap).
    ///
    /// A `station` tag (2 bytes after the bitmap) makes one station's acknowledgements differ
    /// from another's: two bridges on a full-duplex line acknowledging the same sequence number
    /// would otherwise send the same bytes, and each would drop the other's as its own echo.
    public static func ack(next: UInt16, bitmap: UInt32? = nil, station: UInt16? = nil) -> LinkPacket {
        guard bitmap != nil || station != nil else { return LinkPacket(kind: .ack, seq: next) }
        let b = bitmap ?? 0
        var payload = [UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b >> 16 & 0xFF), UInt8(b >> 24)]
        if let station { payload += [UInt8(station & 0xFF), UInt8(station >> 8)] }
        return LinkPacket(kind: .ack, seq: next, payload: payload)
    }

    /// An acknowledgement's selective bitmap (0 when it carries none); a station tag after it is ignored.
    public var selectiveBitmap: UInt32 {
        guard kind == .ack, payload.count >= 4 else { return 0 }
        return UInt32(payload[0]) | UInt32(payload[1]) << 8 | UInt32(payload[2]) << 16 | UInt32(payload[3]) << 24
    }

    /// Packets as sent back to back: each COBS-coded, one 0x00 between two packets and at
    /// both ends.
    public static func stream(_ packets: [LinkPacket]) -> [UInt8] {
        var out: [UInt8] = [0]
        for p in packets { out += p.wireBytes.dropFirst() }
        return out
    }

    /// Bytes before the payload: kind, sequence number (2 bytes) and payload length.
    public static let headerSize = 4
    /// Bytes of the CRC-32 after the payload.
    public static let crcSize = 4
    /// Bytes a packet adds to its payload on the wire (header, CRC, COBS code, 2 delimiters),
    /// valid for payloads under 244 bytes.
    public static let wireOverhead = headerSize + crcSize + 1 + 2
    /// The longest payload: the packet before framing then stays one COBS block (under 254
    /// bytes), so ``wireOverhead`` holds.
    public static let maximumPayload = 243

    /// What the packet is: data, the last data of a message, an acknowledgement or a hello.
    public var kind: Kind
    /// For data the segment's number, for an acknowledgement the next one expected (0 in a
    /// hello); wraps after 65535.
    public var seq: UInt16
    /// The bytes carried: at most ``maximumPayload`` for ``wireOverhead`` to hold, and never
    /// over 255 (the length is one byte).
    public var payload: [UInt8]

    /// A packet from its fields; the payload length is not checked here.
    public init(kind: Kind, seq: UInt16, payload: [UInt8] = []) {
        self.kind = kind
        self.seq = seq
        self.payload = payload
    }

    /// Reed-Solomon parity bytes a data packet carries to a far end that repairs: any 4 damaged
    /// bytes of the packet are repaired on arrival.
    public static let parityBytes = 8
    /// The code behind ``parityBytes``.
    public static let code = ReedSolomon(paritySize: parityBytes)
    /// The longest payload of a packet with parity (one Reed-Solomon codeword of 255 bytes).
    public static let maximumRepairablePayload = ReedSolomon.maximumLength - parityBytes - headerSize - crcSize

    /// The packet as sent alone, with parity when `repairable` and the payload allows:
    /// 0x00, COBS(packet [+ parity]), 0x00.
    public func wireBytes(repairable: Bool) -> [UInt8] {
        var p = body
        if repairable && payload.count <= Self.maximumRepairablePayload { p += Self.code.parity(of: p) }
        return [0] + COBSPacket.encode(p) + [0]
    }

    private var body: [UInt8] {
        var p: [UInt8] = [kind.rawValue, UInt8(seq & 0xFF), UInt8(seq >> 8), UInt8(payload.count)]
        p += payload
        let c = CRC32.checksum(p)
        p += [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF), UInt8(c >> 24)]
        return p
    }

    /// Decodes a COBS-decoded packet that may carry parity: as it is, else repaired; nil when
    /// neither gives a packet whose CRC holds. `repaired` counts the bytes the parity fixed.
    public static func decode(_ p: [UInt8], repaired: inout Int) -> LinkPacket? {
        if let packet = decode(p) { return packet }
        guard p.count >= headerSize + crcSize + parityBytes else { return nil }
        var word = p
        guard let fixed = code.correct(&word) else { return nil }
        guard let packet = decode(Array(word.dropLast(parityBytes))), packet.kind == .data || packet.kind == .dataEnd
        else { return nil }
        repaired += fixed
        return packet
    }

    /// The packet as sent alone: 0x00, COBS(packet), 0x00.
    public var wireBytes: [UInt8] { [0] + COBSPacket.encode(body) + [0] }

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
        // An acknowledgement is plain, with a bitmap, or with a bitmap and a station tag.
        if kind == .ack && length != 0 && length != 4 && length != 6 { return nil }
        if kind == .hello && length < 5 { return nil }
        return LinkPacket(kind: kind, seq: UInt16(p[1]) | UInt16(p[2]) << 8, payload: Array(p[headerSize..<t]))
    }
}

/// Turns received bytes into link packets; counts damaged ones.
public struct LinkPacketParser: Sendable {
    private var cobs = COBSParser()
    /// Frames that arrived but failed COBS, length or CRC checks, even after repair.
    public private(set) var damagedPackets = 0
    /// Bytes that packets' parity repaired.
    public private(set) var repairedBytes = 0
    /// A parser with no frame in progress and its counters at 0.
    public init() {}

    /// Coded bytes held since the last 0x00.
    public var bufferedBytes: Int { cobs.bufferedBytes }
    /// Bytes the COBS layer dropped (bad COBS or over-long frames, delimiter included).
    public var discardedBytes: Int { cobs.discardedBytes }

    /// Pushes one byte; at a 0x00 returns the packet it ends if the CRC holds, repaired by
    /// parity if need be, and counts it as damaged otherwise.
    public mutating func push(_ byte: UInt8) -> LinkPacket? {
        let before = cobs.discardedBytes
        guard let frame = cobs.push(byte, at: 0) else {
            if cobs.discardedBytes != before { damagedPackets += 1 }
            return nil
        }
        guard let p = LinkPacket.decode(frame.payload, repaired: &repairedBytes) else {
            damagedPackets += 1
            return nil
        }
        return p
    }
}
