/// Consistent Overhead Byte Stuffing: the payload is re-coded without zero bytes and each
/// packet ends with 0x00. Overhead is one byte per 254 payload bytes (plus the delimiter).
public struct COBSPacket: PayloadPacket, Equatable {
    /// "COBS", the name that starts this packet's text form.
    public static let protocolName = "COBS"
    /// The longest payload the parser always accepts, in bytes: it caps a coded packet at the
    /// worst-case COBS length of this many bytes.
    public static let maximumPayload = 1024
    /// The packet's decoded bytes (zeros allowed), without the delimiter.
    public var payload: [UInt8]
    /// A packet carrying `payload`; its length is not checked here.
    public init(payload: [UInt8]) { self.payload = payload }

    /// The COBS code of the payload followed by the 0x00 delimiter.
    public var raw: [UInt8] { Self.encode(payload) + [0] }

    /// COBS encoding without the delimiter.
    public static func encode(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0]
        out.reserveCapacity(payload.count + payload.count / 254 + 2)
        var codeIndex = 0
        var code: UInt8 = 1
        for (i, b) in payload.enumerated() {
            if b == 0 {
                out[codeIndex] = code
                codeIndex = out.count
                out.append(0)
                code = 1
            } else {
                out.append(b)
                code += 1
                if code == 0xFF && i + 1 < payload.count {
                    out[codeIndex] = code
                    codeIndex = out.count
                    out.append(0)
                    code = 1
                }
            }
        }
        out[codeIndex] = code
        return out
    }

    /// Decodes COBS bytes (no delimiter); nil if they contain a zero or a code runs past the end.
    public static func decode(_ coded: some Collection<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(coded.count)
        var i = coded.startIndex
        while i != coded.endIndex {
            let code = coded[i]
            if code == 0 { return nil }
            i = coded.index(after: i)
            for _ in 1..<Int(code) {
                guard i != coded.endIndex else { return nil }
                let b = coded[i]
                if b == 0 { return nil }
                out.append(b)
                i = coded.index(after: i)
            }
            if code != 0xFF && i != coded.endIndex { out.append(0) }
        }
        return out
    }
}

/// Parses COBS packets delimited by 0x00. Empty packets are ignored; invalid or overlong
/// ones are discarded up to the next delimiter.
public struct COBSParser: SingleMessageParser {
    /// This parser completes ``COBSPacket`` messages.
    public typealias Message = COBSPacket
    private var packet = PendingPacket(cap: COBSPacket.maximumPayload + COBSPacket.maximumPayload / 254 + 1)
    /// Bytes of packets dropped as invalid COBS or over-long, their 0x00 delimiter included.
    public private(set) var discardedBytes = 0
    /// A parser with no packet in progress.
    public init() {}
    /// Coded bytes held since the last 0x00 (0 once the packet is known to be over-long).
    public var bufferedBytes: Int { packet.bytes.count }

    /// Pushes one byte of a COBS stream; at 0x00 it decodes the bytes since the previous
    /// 0x00, ignoring empty packets. `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double) -> COBSPacket? {
        guard byte == 0 else {
            packet.append(byte)
            return nil
        }
        guard let coded = packet.end(discarded: &discardedBytes), !coded.isEmpty else { return nil }
        guard let payload = COBSPacket.decode(coded) else {
            discardedBytes += coded.count + 1
            return nil
        }
        return COBSPacket(payload: payload)
    }
}
