/// A "Paduino" pin command, host to board: pin number (2-13) then state (0 LOW, 1 HIGH).
public struct PinCommand: FramedMessage, Equatable {
    /// The pin numbers a command may carry, 2-13; the parser discards any other first byte.
    public static let pins: ClosedRange<UInt8> = 2...13
    /// The pin number, sent as the first byte (not range-checked here).
    public var pin: UInt8
    /// The state to set: true sends 1 (HIGH), false sends 0 (LOW).
    public var high: Bool
    /// A command from its pin and state; the pin is not range-checked (``encode(pin:high:)`` is).
    public init(pin: UInt8, high: Bool) {
        self.pin = pin
        self.high = high
    }
    /// The two bytes: the pin, then 1 or 0.
    public var raw: [UInt8] { [pin, high ? 1 : 0] }
    /// "pin" and "state" (1 HIGH, 0 LOW).
    public var fields: [MessageField] {
        [MessageField("pin", .int(Int(pin))), MessageField("state", .int(high ? 1 : 0))]
    }
    /// The command as text, e.g. "pin 13 HIGH".
    public var description: String { "pin \(pin) \(high ? "HIGH" : "LOW")" }

    /// The two bytes; nil for a pin outside 2-13.
    public static func encode(pin: Int, high: Bool) -> [UInt8]? {
        guard pins.contains(UInt8(clamping: pin)), pin >= 0, pin <= 255 else { return nil }
        return [UInt8(pin), high ? 1 : 0]
    }
}

/// Parses pin commands. A byte that is not a pin number, or a state byte other than 0/1, is
/// discarded; an invalid state byte is re-examined as the next pin number.
public struct PinCommandParser: SingleMessageParser {
    /// This parser completes ``PinCommand`` messages.
    public typealias Message = PinCommand
    /// Bytes dropped so far: bytes that are not a pin number, and pin bytes not followed by a
    /// state of 0 or 1.
    public private(set) var discardedBytes = 0
    private var pin: UInt8?

    /// A parser waiting for a pin byte.
    public init() {}
    /// 1 while a pin byte waits for its state byte, else 0.
    public var bufferedBytes: Int { pin == nil ? 0 : 1 }

    /// Pushes one byte: a pin number (2-13) is held, and a 0 or 1 after it completes the
    /// command. `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double) -> PinCommand? {
        if let p = pin {
            if byte <= 1 {
                pin = nil
                return PinCommand(pin: p, high: byte == 1)
            }
            discardedBytes += 1
            pin = nil
        }
        if PinCommand.pins.contains(byte) { pin = byte } else { discardedBytes += 1 }
        return nil
    }
}

/// The board's answer to a pin command: the text line "Set: <pin> to: <state>".
public struct PinReply: FramedMessage, Equatable {
    /// The pin number the board reports setting, as printed (not range-checked).
    public var pin: Int
    /// The state the board reports, as printed (0 LOW, 1 HIGH; other numbers are kept).
    public var state: Int
    /// The reply line's bytes, terminator included.
    public var raw: [UInt8]
    /// "pin" and "state", as the board printed them.
    public var fields: [MessageField] { [MessageField("pin", .int(pin)), MessageField("state", .int(state))] }
    /// The reply as the board prints it, "Set: <pin> to: <state>".
    public var description: String { "Set: \(pin) to: \(state)" }

    /// The reply line with CR LF, as the sketch prints it.
    public static func encode(pin: Int, state: Int) -> [UInt8] { TextLine.encode("Set: \(pin) to: \(state)") }
}

/// Parses "Set: N to: M" lines; other lines are discarded (counted).
public typealias PinReplyParser = LineMessageParser<PinReply>

extension PinReply: LineMessage {
    /// A "Set: N to: M" line; nil for any other.
    public init?(line: TextLine) {
        let words = line.text.split(separator: " ")
        guard words.count == 4, words[0] == "Set:", words[2] == "to:", let p = decimal(words[1]),
            let s = decimal(words[3])
        else {
            return nil
        }
        self.init(pin: p, state: s, raw: line.raw)
    }
}

/// A non-negative decimal of at most 9 digits; nil otherwise.
func decimal(_ s: Substring) -> Int? {
    guard !s.isEmpty, s.utf8.count <= 9 else { return nil }
    var v = 0
    for c in s.utf8 {
        guard c >= 48 && c <= 57 else { return nil }
        v = v * 10 + Int(c - 48)
    }
    return v
}
