/// An XBee API frame: `0x7E`, length (2 bytes, big-endian, counting frame data), frame data
/// (API identifier then data), checksum = 0xFF - (sum of frame data mod 256).
///
/// In API mode 2 every byte after the start delimiter that is 0x7E, 0x7D, 0x11 or 0x13 is
/// sent as 0x7D followed by the byte XOR 0x20.
public struct XBeeAPIFrame: FramedMessage, Equatable {
    /// The start delimiter every frame begins with, 0x7E.
    public static let start: UInt8 = 0x7E
    /// The API mode 2 escape byte, 0x7D; the byte after it is the real one XOR 0x20.
    public static let escape: UInt8 = 0x7D
    /// The longest frame data accepted, in bytes (API identifier plus data); a larger length
    /// marks a false start.
    public static let maximumData = 256

    /// API identifier (e.g. 0x08 AT command, 0x10 transmit request).
    public var apiIdentifier: UInt8
    /// The frame data after the API identifier, unescaped (at most ``maximumData`` - 1 bytes).
    public var data: [UInt8]
    /// True for API mode 2 (escaped).
    public var escaped: Bool

    /// A frame from its fields; data longer than ``maximumData`` - 1 bytes is cut.
    public init(apiIdentifier: UInt8, data: [UInt8], escaped: Bool = false) {
        self.apiIdentifier = apiIdentifier
        self.data = Array(data.prefix(Self.maximumData - 1))
        self.escaped = escaped
    }

    static func needsEscape(_ b: UInt8) -> Bool { b == 0x7E || b == 0x7D || b == 0x11 || b == 0x13 }

    /// The frame on the wire: start, length, API identifier, data and checksum, with every byte
    /// after the start escaped as needed in mode 2.
    public var raw: [UInt8] {
        let frameData = [apiIdentifier] + data
        let sum = frameData.reduce(UInt8(0)) { $0 &+ $1 }
        let body = [UInt8(frameData.count >> 8), UInt8(frameData.count & 0xFF)] + frameData + [0xFF &- sum]
        var out: [UInt8] = [Self.start]
        for b in body {
            if escaped && Self.needsEscape(b) { out += [Self.escape, b ^ 0x20] } else { out.append(b) }
        }
        return out
    }

    /// "api" (the identifier), "data" and "escaped".
    public var fields: [MessageField] {
        [
            MessageField("api", .int(Int(apiIdentifier))), MessageField("data", .bytes(data)),
            MessageField("escaped", .bool(escaped)),
        ]
    }
    /// The API identifier and data in hex, e.g. "API 0x08 data 4944".
    public var description: String { "API 0x\(hexString([apiIdentifier])) data \(hexString(data))" }
}

/// Parses XBee API frames (mode 1, or mode 2 with `escaped`).
///
/// Mode 2: an unescaped 0x7E always starts a new frame, so resynchronisation is immediate.
/// Mode 1: 0x7E may occur inside a frame, so on a bad length or checksum the parser drops
/// the start byte and searches the held bytes again for the next 0x7E.
public struct XBeeAPIFrameParser: MessageParser {
    /// True when parsing API mode 2 (escaped) frames, false for mode 1.
    public let escaped: Bool
    /// Bytes dropped so far: bytes outside frames, and frames with a bad length or checksum
    /// (counted as received).
    public private(set) var discardedBytes = 0
    private var held: [UInt8] = []  // unescaped, starting with 0x7E
    private var rawHeld: [UInt8] = []  // as received (mode 2 only)
    private var escapeNext = false

    /// A parser for API mode 2 when `escaped`, else for mode 1.
    public init(escaped: Bool = false) { self.escaped = escaped }
    /// Bytes held for the frame in progress; in mode 2 both its unescaped and its received copy
    /// count.
    public var bufferedBytes: Int { held.count + rawHeld.count }

    /// Pushes one byte; in mode 1 a bad frame makes it search the held bytes for the next
    /// 0x7E, in mode 2 every 0x7E starts a new frame. `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double, into messages: inout [XBeeAPIFrame]) {
        if escaped {
            if let m = pushEscaped(byte) { messages.append(m) }
            return
        }
        if held.isEmpty && byte != XBeeAPIFrame.start {
            discardedBytes += 1
            return
        }
        held.append(byte)
        while !held.isEmpty {
            switch check() {
            case .incomplete:
                // A false start can announce a long frame and hold back real frames behind
                // it; accept a later start whose frame is complete and valid at this byte.
                if let (k, frame) = laterFrameEndingHere() {
                    discardedBytes += k
                    held.removeAll(keepingCapacity: true)
                    messages.append(frame)
                }
                return
            case .invalid:
                held.removeFirst()
                discardedBytes += 1
                let skip = held.firstIndex(of: XBeeAPIFrame.start) ?? held.count
                discardedBytes += skip
                held.removeFirst(skip)
            case .frame(let id, let data, let size):
                held.removeFirst(size)
                messages.append(XBeeAPIFrame(apiIdentifier: id, data: data, escaped: false))
            }
        }
    }

    private mutating func pushEscaped(_ byte: UInt8) -> XBeeAPIFrame? {
        if byte == XBeeAPIFrame.start {
            discardedBytes += rawHeld.count
            held = [byte]
            rawHeld = [byte]
            escapeNext = false
            return nil
        }
        guard !held.isEmpty else {
            discardedBytes += 1
            return nil
        }
        rawHeld.append(byte)
        if escapeNext {
            escapeNext = false
            held.append(byte ^ 0x20)
        } else if byte == XBeeAPIFrame.escape {
            escapeNext = true
            return nil
        } else {
            held.append(byte)
        }
        switch check() {
        case .incomplete: return nil
        case .invalid:
            discardedBytes += rawHeld.count
            held.removeAll(keepingCapacity: true)
            rawHeld.removeAll(keepingCapacity: true)
            return nil
        case .frame(let id, let data, _):
            held.removeAll(keepingCapacity: true)
            rawHeld.removeAll(keepingCapacity: true)
            return XBeeAPIFrame(apiIdentifier: id, data: data, escaped: true)
        }
    }

    private func laterFrameEndingHere() -> (Int, XBeeAPIFrame)? {
        var k = 1
        while k + 4 < held.count {
            if held[k] == XBeeAPIFrame.start {
                let length = Int(held[k + 1]) << 8 | Int(held[k + 2])
                if length > 0 && held.count - k == length + 4 {
                    var sum: UInt8 = 0
                    for b in held[(k + 3)...] { sum &+= b }
                    if sum == 0xFF {
                        return (
                            k, XBeeAPIFrame(apiIdentifier: held[k + 3], data: Array(held[(k + 4)..<(held.count - 1)]))
                        )
                    }
                }
            }
            k += 1
        }
        return nil
    }

    private enum Check {
        case incomplete, invalid
        case frame(UInt8, [UInt8], Int)
    }

    private func check() -> Check {
        guard held.count >= 3 else { return .incomplete }
        let length = Int(held[1]) << 8 | Int(held[2])
        if length == 0 || length > XBeeAPIFrame.maximumData { return .invalid }
        let size = length + 4
        guard held.count >= size else { return .incomplete }
        var sum: UInt8 = 0
        for b in held[3..<(size - 1)] { sum &+= b }
        guard sum &+ held[size - 1] == 0xFF else { return .invalid }
        return .frame(held[3], Array(held[4..<(size - 1)]), size)
    }
}
