/// An incremental parser for one byte protocol of the serial path.
///
/// Bytes go in one at a time, so any chunking of the stream gives the same messages.
/// Bytes that cannot belong to a valid message are dropped and counted in
/// ``discardedBytes``; the parser then resynchronises on the next plausible start.
/// Memory is bounded: ``bufferedBytes`` never exceeds the parser's own cap.
public protocol MessageParser: Sendable {
    /// The kind of message this parser completes.
    associatedtype Message: FramedMessage

    /// Feeds one byte that arrived at `time` seconds; appends the messages it completes
    /// (several when a rescan after damage finds more than one frame).
    mutating func push(_ byte: UInt8, at time: Double, into messages: inout [Message])

    /// Lets time pass with no byte; only parsers with timing rules (XBee guard times)
    /// can complete a message this way. Default: nothing happens.
    mutating func advance(to time: Double) -> Message?

    /// Bytes dropped so far because they fitted no message.
    var discardedBytes: Int { get }

    /// Bytes held for a message not yet complete.
    var bufferedBytes: Int { get }
}

extension MessageParser {
    /// Default for parsers without timing rules: time passing completes nothing, so always nil.
    public mutating func advance(to time: Double) -> Message? { nil }

    /// Feeds a whole chunk; returns the messages it completed, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>, at time: Double = 0) -> [Message] {
        var out: [Message] = []
        for b in bytes { push(b, at: time, into: &out) }
        return out
    }
}

/// A parser that completes at most one message per byte: implement ``push(_:at:)``.
public protocol SingleMessageParser: MessageParser {
    /// Feeds one byte; returns the message it completes, if any.
    mutating func push(_ byte: UInt8, at time: Double) -> Message?
}

extension SingleMessageParser {
    /// Bridges to ``push(_:at:)``: appends the one message it returns, if any.
    public mutating func push(_ byte: UInt8, at time: Double, into messages: inout [Message]) {
        if let m = push(byte, at: time) { messages.append(m) }
    }
}

/// A parsed message: its bytes on the wire, named fields and a one-line text form.
public protocol FramedMessage: Sendable, CustomStringConvertible {
    /// The bytes that made up this message on the wire (escapes and checksums included).
    var raw: [UInt8] { get }
    /// Named values, in a stable order, for JSON output.
    var fields: [MessageField] { get }
}

/// One named value of a parsed message.
public struct MessageField: Sendable, Equatable {
    /// The field's key in JSON output, in snake_case (e.g. "ack_requested").
    public var name: String
    /// The field's value: an integer, number, flag, text or bytes.
    public var value: FieldValue
    /// A field named `name` holding `value`.
    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// The value of a ``MessageField``.
public enum FieldValue: Sendable, Equatable {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    case bytes([UInt8])
}

/// Lowercase hexadecimal, two digits per byte, no separators.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for b in bytes {
        out.append(digits[Int(b >> 4)])
        out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Parses hexadecimal text ("0a ff", "0AFF", "0x0a,0xff"); nil if any other character
/// appears or a digit is left over.
public func parseHex(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    var high: UInt8?
    var chars = Array(text.utf8)[...]
    while let c = chars.first {
        chars = chars.dropFirst()
        if c == UInt8(ascii: "0"), let n = chars.first, n == UInt8(ascii: "x") || n == UInt8(ascii: "X"), high == nil {
            chars = chars.dropFirst()
            continue
        }
        if c == 32 || c == UInt8(ascii: ",") || c == UInt8(ascii: ":") || c == 9 {
            if high != nil { return nil }
            continue
        }
        let v: UInt8
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
        default: return nil
        }
        if let h = high {
            out.append(h << 4 | v)
            high = nil
        } else {
            high = v
        }
    }
    return high == nil ? out : nil
}

/// Text for bytes that may not be UTF-8: printable ASCII kept, everything else as \xNN.
func printable(_ bytes: some Sequence<UInt8>) -> String {
    var s = ""
    for b in bytes {
        if b >= 32 && b < 127 { s.unicodeScalars.append(Unicode.Scalar(b)) } else { s += "\\x" + hexString([b]) }
    }
    return s
}
