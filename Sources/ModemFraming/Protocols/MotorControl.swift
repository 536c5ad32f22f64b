/// A "Carduino" motor packet (HM-10 BLE car): control byte, steering magnitude,
/// acceleration magnitude, ':'.
///
/// Control bits: 0 steering reverse (negative), 1 acceleration reverse, 2 steering had 128
/// subtracted, 3 acceleration had 128 subtracted, 4 headlights, 5 brake lights; 6 and 7 are
/// always 0. Magnitudes are 0-127 after the subtraction, so the terminator ':' (58) can also
/// appear as a magnitude; the parser checks every field, not just the terminator.
public struct MotorCommand: FramedMessage, Equatable {
    /// Steering, -255...255 (negative = reverse).
    public var steering: Int
    /// Acceleration, -255...255 (negative = reverse).
    public var acceleration: Int
    /// Headlights on (control bit 4).
    public var headlights: Bool
    /// Brake lights on (control bit 5).
    public var brakeLights: Bool

    /// Values outside -255...255 are clamped.
    public init(steering: Int, acceleration: Int, headlights: Bool = false, brakeLights: Bool = false) {
        self.steering = min(255, max(-255, steering))
        self.acceleration = min(255, max(-255, acceleration))
        self.headlights = headlights
        self.brakeLights = brakeLights
    }

    /// The last byte of every packet, ':' (0x3A).
    public static let terminator = UInt8(ascii: ":")

    /// The four bytes of this packet.
    public var raw: [UInt8] {
        var control: UInt8 = 0
        func magnitude(_ v: Int, reverseBit: UInt8, highBit: UInt8) -> UInt8 {
            var m = abs(v)
            if v < 0 { control |= reverseBit }
            if m >= 128 {
                control |= highBit
                m -= 128
            }
            return UInt8(m)
        }
        let s = magnitude(steering, reverseBit: 1, highBit: 4)
        let a = magnitude(acceleration, reverseBit: 2, highBit: 8)
        if headlights { control |= 16 }
        if brakeLights { control |= 32 }
        return [control, s, a, Self.terminator]
    }

    /// Decodes four bytes; nil if they are not a valid packet.
    public static func decode(_ b: some Collection<UInt8>) -> MotorCommand? {
        guard b.count == 4 else { return nil }
        let a = Array(b)
        guard a[0] & 0xC0 == 0, a[1] < 128, a[2] < 128, a[3] == terminator else { return nil }
        let c = a[0]
        let s = (Int(a[1]) + (c & 4 != 0 ? 128 : 0)) * (c & 1 != 0 ? -1 : 1)
        let x = (Int(a[2]) + (c & 8 != 0 ? 128 : 0)) * (c & 2 != 0 ? -1 : 1)
        return MotorCommand(steering: s, acceleration: x, headlights: c & 16 != 0, brakeLights: c & 32 != 0)
    }

    /// "steer" and "accel" (-255...255), "headlights" and "brake".
    public var fields: [MessageField] {
        [
            MessageField("steer", .int(steering)), MessageField("accel", .int(acceleration)),
            MessageField("headlights", .bool(headlights)), MessageField("brake", .bool(brakeLights)),
        ]
    }
    /// Steering and acceleration, plus the lights that are on, e.g. "steer -40 accel 200 brake".
    public var description: String {
        "steer \(steering) accel \(acceleration)\(headlights ? " headlights" : "")\(brakeLights ? " brake" : "")"
    }
}

/// Finds motor packets with a sliding four-byte window.
public typealias MotorCommandParser = HeldBytesParser<MotorCommandFraming>

/// Motor packets in a sliding four-byte window: when the window is not a valid packet its
/// first byte is discarded and the search goes on one byte later.
public enum MotorCommandFraming: HeldBytesFraming {
    /// Slides a four-byte window over the stream: a window that is not a valid packet drops
    /// its first byte, and any next byte with bit 6 or 7 set, which no control byte has.
    public static func push(_ byte: UInt8, held window: inout [UInt8], discarded: inout Int) -> MotorCommand? {
        window.append(byte)
        if window.count == 1 && byte & 0xC0 != 0 {
            window.removeAll(keepingCapacity: true)
            discarded += 1
            return nil
        }
        guard window.count == 4 else { return nil }
        if let m = MotorCommand.decode(window) {
            window.removeAll(keepingCapacity: true)
            return m
        }
        window.removeFirst()
        discarded += 1
        while let f = window.first, f & 0xC0 != 0 {
            window.removeFirst()
            discarded += 1
        }
        return nil
    }
}
