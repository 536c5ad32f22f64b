/// A "Paduino" pin command, host to board: pin number (2-13) then state (0 LOW, 1 HIGH).
public struct PinCommand: FramedMessage, Equatable {
    public static let pins: ClosedRange<UInt8> = 2...13
    public var pin: UInt8
    public var high: Bool
    public init(pin: UInt8, high: Bool) {
        self.pin = pin
        self.high = high
    }
    public var raw: [UInt8] { [pin, high ? 1 : 0] }
    public var fields: [MessageField] {
        [MessageField("pin", .int(Int(pin))), MessageField("state", .int(high ? 1 : 0))]
    }
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
    public typealias Message = PinCommand
    public private(set) var discardedBytes = 0
    private var pin: UInt8?

    public init() {}
    public var bufferedBytes: Int { pin == nil ? 0 : 1 }

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
    public var pin: Int
    public var state: Int
    public var raw: [UInt8]
    public var fields: [MessageField] { [MessageField("pin", .int(pin)), MessageField("state", .int(state))] }
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
