/// Why a profile, frame format or sample rate cannot be used.
///
/// Every case carries the offending values, so a command line can print one line that
/// names the problem.
public enum ModemConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case sampleRateOutOfRange(Double)
    case nonPositive(String, Double)
    case markEqualsSpace(Double)
    case toneAboveNyquist(String, Double, Double)
    case baudTooHigh(Double, Double)
    case tonesTooClose(Double, Double, Double)
    case invalidFrame(String)
    /// An output level in dBFS outside -120...0 (the command line's `--amplitude`).
    case invalidAmplitude(Double)
    /// A linear amplitude outside 0...1, or not a number (``FSKModulator``'s).
    case invalidLinearAmplitude(Double)
    case unknownProfile(String)
    /// A HiJack coder's parameters (rate, bit rate, byte period, levels).
    case hijack(HiJackConfigurationError)

    /// One line naming the problem and the values that caused it.
    public var description: String {
        switch self {
        case .sampleRateOutOfRange(let rate):
            return "sample rate \(formatHz(rate)) Hz is outside 8000-192000 Hz"
        case .nonPositive(let what, let value):
            return "\(what) must be a positive number, not \(value)"
        case .markEqualsSpace(let tone):
            return "mark and space are both \(formatHz(tone)) Hz; they must differ"
        case .toneAboveNyquist(let what, let tone, let rate):
            return
                "\(what) tone \(formatHz(tone)) Hz is not below half the sample rate (\(formatHz(rate / 2)) Hz at \(formatHz(rate)) Hz)"
        case .baudTooHigh(let baud, let rate):
            return "\(formatHz(baud)) baud leaves fewer than 4 samples per bit at \(formatHz(rate)) Hz"
        case .tonesTooClose(let mark, let space, let baud):
            return
                "mark \(formatHz(mark)) Hz and space \(formatHz(space)) Hz are closer than half of \(formatHz(baud)) baud"
        case .invalidFrame(let why):
            return why
        case .invalidAmplitude(let dbfs):
            return "amplitude \(dbfs) dBFS must be between -120 and 0"
        case .invalidLinearAmplitude(let amplitude):
            return "amplitude \(amplitude) must be between 0 and 1 (full scale)"
        case .unknownProfile(let name):
            return "unknown profile '\(name)'; known: \(ModemProfile.builtIn.map(\.name).joined(separator: ", "))"
        case .hijack(let error):
            return error.description
        }
    }
}
