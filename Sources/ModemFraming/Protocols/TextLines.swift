/// One line of text as an Arduino `Serial.println` sends it.
public struct TextLine: FramedMessage, Equatable {
    /// The line without its terminator (bytes that are not UTF-8 are replaced).
    public var text: String
    /// The line's bytes with its terminator, recorded as CR LF when the line ended at CR
    /// (the LF may not have arrived yet) and LF when it ended at a lone LF.
    public var raw: [UInt8]
    /// A line from its decoded text and its wire bytes; the two are not checked against each other.
    public init(text: String, raw: [UInt8]) {
        self.text = text
        self.raw = raw
    }
    /// One field, "text": the line without its terminator.
    public var fields: [MessageField] { [MessageField("text", .string(text))] }
    /// The line's text, without its terminator.
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
    /// This parser completes ``TextLine`` messages.
    public typealias Message = TextLine
    /// The longest line kept, in bytes before the terminator; a longer one is dropped up to its
    /// terminator.
    public static let maximumLength = 256
    /// Bytes dropped so far: control bytes (except tab and the terminators), DEL, and over-long
    /// lines with their terminators.
    public private(set) var discardedBytes = 0
    private var line: [UInt8] = []
    private var raw: [UInt8] = []
    private var afterCR = false
    private var overlong = false

    /// A parser with no line in progress.
    public init() {}

    /// Bytes of the line in progress, at most ``maximumLength``.
    public var bufferedBytes: Int { raw.count }

    /// Pushes one byte; CR, LF or CR LF ends a non-empty line, and the LF of a CR LF is
    /// skipped even when it comes in a later push. `time` is ignored.
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
