/// A range reading from a MaxSonar sensor.
public struct RangeReading: FramedMessage, Equatable {
    /// The unit of a reading: centimetres from the Arduino sketch, inches from an EZ1 directly.
    public enum Unit: String, Sendable {
        case centimetres = "cm"
        case inches = "in"
    }
    /// The distance in ``unit`` (0-99999 cm from a line, 0-255 inches from an EZ1).
    public var value: Int
    /// Whether ``value`` is centimetres (Arduino lines) or inches (EZ1).
    public var unit: Unit
    /// The reading's bytes on the wire, terminator included.
    public var raw: [UInt8]
    /// "range" (the value) and "unit" ("cm" or "in").
    public var fields: [MessageField] {
        [MessageField("range", .int(value)), MessageField("unit", .string(unit.rawValue))]
    }
    /// The value and its unit, e.g. "157 cm".
    public var description: String { "\(value) \(unit.rawValue)" }

    /// A MaxSonar-via-Arduino line: decimal centimetres and CR LF.
    public static func encodeLine(centimetres: Int) -> [UInt8] { TextLine.encode(String(max(0, centimetres))) }

    /// An LV-MaxSonar-EZ1 reading: 'R', three digits (inches, clamped to 0-255), CR.
    public static func encodeEZ1(inches: Int) -> [UInt8] {
        let v = min(255, max(0, inches))
        return [UInt8(ascii: "R"), UInt8(48 + v / 100), UInt8(48 + v / 10 % 10), UInt8(48 + v % 10), 13]
    }
}

/// Parses MaxSonar-via-Arduino lines ("157\r\n"): lines that are not all digits (at most 5)
/// are discarded.
public typealias RangeLineParser = LineMessageParser<RangeReading>

extension RangeReading: LineMessage {
    /// A MaxSonar-via-Arduino line: at most 5 decimal digits, centimetres.
    public init?(line: TextLine) {
        guard line.text.utf8.count <= 5, let v = decimal(Substring(line.text)) else { return nil }
        self.init(value: v, unit: .centimetres, raw: line.raw)
    }
}

/// Parses the LV-MaxSonar-EZ1 serial output: "R" + three digits + CR, inches 000-255.
public typealias EZ1Parser = HeldBytesParser<EZ1Framing>

/// An EZ1 reading: "R" + three digits + CR. Anything else (the copyright line printed at
/// power-on, noise) is discarded; an 'R' always restarts a reading, so a reading right after
/// garbage is still found.
public enum EZ1Framing: HeldBytesFraming {
    /// Pushes one EZ1 byte: 'R' starts a reading, three digits and CR complete it;
    /// anything else, or a value over 255, discards the held bytes.
    public static func push(_ byte: UInt8, held: inout [UInt8], discarded discardedBytes: inout Int) -> RangeReading? {
        if byte == UInt8(ascii: "R") {
            discardedBytes += held.count
            held = [byte]
            return nil
        }
        guard !held.isEmpty else {
            discardedBytes += 1
            return nil
        }
        if held.count < 4 {
            if byte >= 48 && byte <= 57 {
                held.append(byte)
            } else {
                discardedBytes += held.count + 1
                held.removeAll(keepingCapacity: true)
            }
            return nil
        }
        defer { held.removeAll(keepingCapacity: true) }
        let v = Int(held[1] - 48) * 100 + Int(held[2] - 48) * 10 + Int(held[3] - 48)
        if byte == 13 && v <= 255 {
            return RangeReading(value: v, unit: .inches, raw: held + [13])
        }
        discardedBytes += held.count + 1
        return nil
    }
}
