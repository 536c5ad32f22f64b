/// One sample of the stock HiJack firmware's sensor stream: the top 8 bits of an ADC
/// reading whose full scale is 2.75 V.
public struct HiJackSample: ByteMessage, Equatable {
    /// The ADC's full scale in volts (the board's 2.75 V supply), which byte 255 stands for.
    public static let fullScale = 2.75
    /// The sample byte: the top 8 bits of the ADC reading.
    public var byte: UInt8
    /// A sample from its byte; every value is valid.
    public init(byte: UInt8) { self.byte = byte }

    /// 0 -> 0 V, 255 -> 2.75 V, linear.
    public var volts: Double { Double(byte) * Self.fullScale / 255 }

    /// The byte for a voltage (rounded, clamped to 0-2.75 V; NaN gives 0).
    public static func byte(forVolts v: Double) -> UInt8 {
        guard v.isFinite, v > 0 else { return 0 }
        return UInt8(min(255, (v / fullScale * 255).rounded()))
    }

    /// The single sample byte.
    public var raw: [UInt8] { [byte] }
    /// "byte" and "volts" (the sample in volts).
    public var fields: [MessageField] {
        [MessageField("byte", .int(Int(byte))), MessageField("volts", .double(volts))]
    }
    /// The voltage to the millivolt, e.g. "1.380 V" for byte 128.
    public var description: String {
        let mv = Int((volts * 1000).rounded())
        return "\(mv / 1000).\(String(1000 + mv % 1000).dropFirst()) V"
    }
}

/// The byte the phone sends the stock HiJack firmware to set its sampling period:
/// 2560 / (b + 1) / 2 ticks of 1/1024 s, in integer arithmetic as the firmware does it.
public struct HiJackRate: ByteMessage, Equatable {
    /// The byte sent to the board; every value 0-255 selects a rate.
    public var byte: UInt8
    /// A rate setting from its byte; every value is valid.
    public init(byte: UInt8) { self.byte = byte }

    /// Period in ticks of 1/1024 s (1280 for b = 0, 5 for b = 255).
    public var periodTicks: Int { 2560 / (Int(byte) + 1) / 2 }
    /// The sampling period in seconds (1.25 s for b = 0, about 4.9 ms for b = 255).
    public var periodSeconds: Double { Double(periodTicks) / 1024 }
    /// The sampling rate in Hz, 1 / ``periodSeconds`` (0.8 Hz for b = 0, 204.8 Hz for b = 255).
    public var hertz: Double { 1 / periodSeconds }

    /// The byte whose rate is closest to `hertz` (NaN or <= 0 gives the slowest).
    public static func byte(forHertz hertz: Double) -> UInt8 {
        guard hertz.isFinite, hertz > 0 else { return 0 }
        var best: UInt8 = 0
        var bestError = Double.infinity
        for b in 0...255 {
            let e = abs(HiJackRate(byte: UInt8(b)).hertz - hertz)
            if e < bestError {
                bestError = e
                best = UInt8(b)
            }
        }
        return best
    }

    /// The single rate byte.
    public var raw: [UInt8] { [byte] }
    /// "byte", "period_ticks" (in 1/1024 s) and "hz".
    public var fields: [MessageField] {
        [
            MessageField("byte", .int(Int(byte))), MessageField("period_ticks", .int(periodTicks)),
            MessageField("hz", .double(hertz)),
        ]
    }
    /// The byte and its period, e.g. "rate byte 9: period 128/1024 s".
    public var description: String { "rate byte \(byte): period \(periodTicks)/1024 s" }
}

/// Every byte is a sample.
public typealias HiJackSampleParser = ByteMessageParser<HiJackSample>

/// Every byte is a rate setting.
public typealias HiJackRateParser = ByteMessageParser<HiJackRate>
