/// One packet of the hijack-infinity framing: 0xDD, a length, the payload with escapes, an
/// 8-bit sum (docs/hijack.md).
///
/// The length counts every raw byte after it: escapes and the checksum included. What the
/// published code sends differs from what its own receivers accept, and the parser takes
/// all of it:
/// - the firmware escapes 0xDD and 0xCC with 0xCC and adds the escapes to the checksum;
/// - the Android library escapes only 0xCC, with 0xDD, and adds the escapes too;
/// - the receivers (and ``encode(payload:)``) leave escapes out of the checksum.
/// The checksum byte itself is never escaped by either sender; it is taken by position.
public struct HiJackInfinityFrame: FramedMessage, Equatable {
    /// The byte every packet starts with, 0xDD.
    public static let startByte: UInt8 = 0xDD
    /// The escape byte, 0xCC, which the firmware and the stock receivers put before a 0xDD or
    /// 0xCC in the body.
    public static let escapeByte: UInt8 = 0xCC
    /// The largest length byte either stock receiver accepts (17 raw body bytes + checksum).
    public static let maximumLength = 18

    /// The packet's bytes with escapes removed.
    public var payload: [UInt8]
    /// The packet as received: 0xDD, length, escaped body and checksum.
    public var raw: [UInt8]

    /// The frame for `payload` as the stock receivers want it: 0xDD and 0xCC escaped with
    /// 0xCC, the length counting escapes and checksum, the checksum the sum of the payload
    /// (escaped too when it is 0xDD or 0xCC). Nil when it would not fit a length of 18.
    public static func encode(payload: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        for b in payload {
            if b == startByte || b == escapeByte { body.append(escapeByte) }
            body.append(b)
        }
        let sum = payload.reduce(0, &+)
        if sum == startByte || sum == escapeByte { body.append(escapeByte) }
        body.append(sum)
        guard body.count <= maximumLength else { return nil }
        return [startByte, UInt8(body.count)] + body
    }

    /// The payload bytes read as the stock board's sensor packet (9 bytes) or the phone's
    /// output packet (1 byte).
    public var fields: [MessageField] {
        var f = [MessageField("payload", .bytes(payload))]
        if payload.count == 9 {
            func le(_ i: Int) -> Int { Int(payload[i]) | Int(payload[i + 1]) << 8 }
            f += [
                MessageField("din1", .int(Int(payload[0] & 1))), MessageField("din2", .int(Int(payload[0] >> 1 & 1))),
                MessageField("vcc", .int(le(1))), MessageField("temp_ext", .int(le(3))),
                MessageField("ain1", .int(le(5))), MessageField("ain2", .int(le(7))),
            ]
        } else if payload.count == 1 {
            f += (0..<4).map { MessageField("dout\($0 + 1)", .int(Int(payload[0] >> UInt8($0) & 1))) }
        }
        return f
    }

    /// "infinity packet" and the payload in hex.
    public var description: String { "infinity packet \(hexString(payload))" }
}

/// Parses hijack-infinity packets by position: after 0xDD the length, then exactly that many
/// raw bytes, the last the checksum. A packet whose checksum fits neither sender's rule is
/// dropped and the bytes after its start are searched again for 0xDD.
public struct HiJackInfinityFrameParser: MessageParser {
    /// This parser completes ``HiJackInfinityFrame`` messages.
    public typealias Message = HiJackInfinityFrame
    /// Bytes dropped so far: noise before a 0xDD, and start bytes whose length or checksum
    /// failed.
    public private(set) var discardedBytes = 0
    private var buffer: [UInt8] = []

    /// A parser with nothing held.
    public init() {}
    /// Bytes held from the latest 0xDD towards a packet not yet complete.
    public var bufferedBytes: Int { buffer.count }

    /// Pushes one byte and rescans what is held: packets out, noise dropped, a partial
    /// packet kept. `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double, into messages: inout [HiJackInfinityFrame]) {
        buffer.append(byte)
        scan(into: &messages)
    }

    /// Consumes what the buffer holds: frames out, noise dropped, a partial frame kept.
    private mutating func scan(into messages: inout [HiJackInfinityFrame]) {
        while true {
            guard let start = buffer.firstIndex(of: HiJackInfinityFrame.startByte) else {
                discardedBytes += buffer.count
                buffer.removeAll()
                return
            }
            if start > 0 {
                discardedBytes += start
                buffer.removeFirst(start)
            }
            guard buffer.count >= 2 else { return }
            let length = Int(buffer[1])
            guard (2...HiJackInfinityFrame.maximumLength).contains(length) else {
                discardedBytes += 1
                buffer.removeFirst()
                continue
            }
            guard buffer.count >= 2 + length else { return }
            let raw = Array(buffer[0..<(2 + length)])
            if let payload = Self.payload(of: raw) {
                messages.append(HiJackInfinityFrame(payload: payload, raw: raw))
                buffer.removeFirst(raw.count)
            } else {
                discardedBytes += 1
                buffer.removeFirst()
            }
        }
    }

    /// The payload of a complete candidate frame, or nil when no sender's rule explains it.
    static func payload(of raw: [UInt8]) -> [UInt8]? {
        let body = raw[2..<(raw.count - 1)]
        let check = raw[raw.count - 1]
        let rawSum = body.reduce(0, &+)
        // Firmware and stock receivers: 0xCC escapes the 0xDD or 0xCC after it (the firmware
        // escapes nothing else, so any other byte after it is the Android convention's).
        var cc: [UInt8] = []
        var escaped = false
        var firmwareStyle = true
        for b in body {
            if !escaped && b == HiJackInfinityFrame.escapeByte {
                escaped = true
                continue
            }
            if escaped && b != HiJackInfinityFrame.startByte && b != HiJackInfinityFrame.escapeByte {
                firmwareStyle = false
            }
            escaped = false
            cc.append(b)
        }
        // An escape left dangling before the checksum escaped the checksum itself.
        if firmwareStyle && (check == rawSum || check == cc.reduce(0, &+)) { return cc }
        // Android: 0xDD escapes a 0xCC; any other 0xDD is itself.
        var dd: [UInt8] = []
        var i = body.startIndex
        while i < body.endIndex {
            if body[i] == HiJackInfinityFrame.startByte, i + 1 < body.endIndex,
                body[i + 1] == HiJackInfinityFrame.escapeByte
            {
                i += 1
            }
            dd.append(body[i])
            i += 1
        }
        if check == rawSum || check == dd.reduce(0, &+) { return dd }
        return nil
    }
}
