/// One line of text as an Arduino `Serial.println` sends it.
public struct TextLine: FramedMessage, Equatable {
    /// The line without its terminator (bytes that are not UTF-8 are replaced).
    public var text: String
    public var raw: [UInt8]
    public init(text: String, raw: [UInt8]) {
        self.text = text
        self.raw = raw
    }
    public var fields: [MessageField] { [MessageField("text", .string(text))] }
    public var description: String { text }

    /// `text` followed by CR LF.
    public static func encode(_ text: String) -> [UInt8] { Array(text.utf8) + [13, 10] }
}

/// Splits a byte stream into lines ended by CR LF, LF or CR.
///
/// CR LF counts as one terminator even when the LF comes in a later chunk. Empty lines are
/// not reported. Control bytes other than tab are dropped (counted as discarded): on an
/// audio link they are almost always noise. A line longer than ``maximumLength`` is dropped
/// whole, up to its terminator.
public struct TextLineParser: SingleMessageParser {
    public typealias Message = TextLine
    public static let maximumLength = 256
    public private(set) var discardedBytes = 0
    private var line: [UInt8] = []
    private var raw: [UInt8] = []
    private var afterCR = false
    private var overlong = false

    public init() {}

    public var bufferedBytes: Int { raw.count }

    public mutating func push(_ byte: UInt8, at time: Double) -> TextLine? {
        if byte == 10 && afterCR {
            afterCR = false
            return nil
        }
        afterCR = byte == 13
        if byte == 10 || byte == 13 {
            defer {
                line.removeAll(keepingCapacity: true)
                raw.removeAll(keepingCapacity: true)
                overlong = false
            }
            if overlong {
                discardedBytes += 1
                return nil
            }
            if line.isEmpty {
                discardedBytes += raw.count
                return nil
            }
            let r = raw + (byte == 13 ? [13, 10] : [10])
            return TextLine(text: decodeUTF8(line), raw: r)
        }
        if overlong || (byte < 32 && byte != 9) || byte == 127 {
            discardedBytes += 1
            return nil
        }
        if line.count >= Self.maximumLength {
            discardedBytes += raw.count + 1
            line.removeAll(keepingCapacity: true)
            raw.removeAll(keepingCapacity: true)
            overlong = true
            return nil
        }
        line.append(byte)
        raw.append(byte)
        return nil
    }
}

/// UTF-8 to String with invalid sequences replaced by U+FFFD.
///
/// Decoded with `Unicode.UTF8` by hand rather than `String(decoding:)`: the standard
/// library's repair path reports invalid input by throwing internally, which is slow where
/// errors are hooked (test harnesses capture a backtrace per throw), and line noise is
/// mostly invalid UTF-8.
func decodeUTF8(_ bytes: [UInt8]) -> String {
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    var s = String.UnicodeScalarView()
    var it = bytes.makeIterator()
    var decoder = Unicode.UTF8()
    loop: while true {
        switch decoder.decode(&it) {
        case .scalarValue(let v): s.append(v)
        case .error: s.append("\u{FFFD}")
        case .emptyInput: break loop
        }
    }
    return String(s)
}
