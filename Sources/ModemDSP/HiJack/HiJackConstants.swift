/// Numbers fixed by the HiJack Gen 1 firmware and iOS library (PROTOCOLS.md section 2).
public enum HiJack {
    /// Phone -> board bit rate of the stock iOS library: 32 samples per bit at 44.1 kHz.
    public static let hostBaud = 1378.125
    /// Board -> phone bit rate: a half bit is 11 ticks of the 32.768 kHz crystal.
    public static let boardBaud = 32_768.0 / 22
    /// Bit rates the board's receiver accepts (17-34 tick windows), with a safety margin:
    /// the derived window is roughly 964-1928 baud.
    public static let hostBaudRange = 1_000.0...1_900.0
    /// Bit cells from one start bit to the next in the stock library.
    public static let defaultBytePeriod = 100
    /// Start + 8 data + parity: the cells of a frame before the idle 1s.
    public static let frameBits = 10
    /// The board needs this many idle 1s (the stop bit included) before a start bit.
    public static let minimumIdleBits = 4

    /// The power tone to use at a sample rate: fs/2 at 44.1 kHz (what the stock app
    /// draws), otherwise 21 kHz, which every DAC at 48 kHz and above passes.
    public static func defaultPowerTone(sampleRate: Double) -> Double {
        sampleRate == 44_100 ? 22_050 : min(21_000, sampleRate / 2)
    }

    /// Even parity bit for a byte: 1 when the byte has an odd number of 1 bits.
    @inlinable
    public static func evenParity(_ byte: UInt8) -> UInt8 { UInt8(byte.nonzeroBitCount & 1) }
}

/// Why a HiJack encoder, decoder or power tone cannot be built.
public enum HiJackConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case sampleRateOutOfRange(Double)
    case baudOutOfRange(Double, ClosedRange<Double>)
    case bytePeriodTooShort(Int)
    case amplitudeOutOfRange(String, Double)
    case powerToneOutOfRange(Double, Double)
    case sampleRateMismatch(Double, Double)

    /// One line naming the value that does not work and the range it must lie in.
    public var description: String {
        switch self {
        case .sampleRateOutOfRange(let rate):
            // One wording for every modem's rate check.
            return ModemConfigurationError.sampleRateOutOfRange(rate).description
        case .baudOutOfRange(let baud, let range):
            return "HiJack bit rate \(baud) baud is outside \(Int(range.lowerBound))-\(Int(range.upperBound)) baud"
        case .bytePeriodTooShort(let cells):
            return
                "byte period \(cells) bit cells is shorter than \(HiJack.frameBits + HiJack.minimumIdleBits) (start, 8 data, parity and 4 idle bits) or longer than 100000"
        case .amplitudeOutOfRange(let what, let value):
            return "\(what) \(value) must be between 0 and 1 (full scale)"
        case .powerToneOutOfRange(let hz, let rate):
            return "power tone \(hz) Hz must be above 0 and at most half the sample rate (\(rate / 2) Hz)"
        case .sampleRateMismatch(let data, let power):
            return "data signal at \(data) Hz and power tone at \(power) Hz must share one sample rate"
        }
    }
}
