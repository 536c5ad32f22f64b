/// The tones and bit rate of one binary FSK modem.
///
/// Mark (a 1 bit, also the idle and stop level) and space (a 0 bit, the start bit) are
/// given in hertz; `baud` in bits per second. SoftModem's mark is always the higher tone,
/// but nothing here requires that: Bell 103 answer-side profiles and user overrides may
/// swap them. Values are validated against a sample rate by ``validate(sampleRate:)``.
public struct ModemProfile: Sendable, Hashable, CustomStringConvertible {
    /// The name used on the command line, or "custom" after an override.
    public var name: String
    public var baud: Double
    public var mark: Double
    public var space: Double

    public init(name: String, baud: Double, mark: Double, space: Double) {
        self.name = name
        self.baud = baud
        self.mark = mark
        self.space = space
    }

    public var description: String {
        "\(name) (\(formatHz(baud)) baud, mark \(formatHz(mark)) Hz, space \(formatHz(space)) Hz)"
    }

    /// The lowest and highest sample rates the modem accepts.
    public static let sampleRateRange: ClosedRange<Double> = 8_000...192_000

    /// Checks that the profile can be used at `sampleRate`.
    ///
    /// Rejects non-finite or non-positive values, a rate outside 8-192 kHz, mark equal to
    /// space, a tone at or above the Nyquist frequency, and a baud rate so high that a bit
    /// lasts fewer than 4 samples or the tones are closer than half the baud rate (no
    /// receiver could tell them apart within one bit).
    public func validate(sampleRate: Double) throws(ModemConfigurationError) {
        guard sampleRate.isFinite, Self.sampleRateRange.contains(sampleRate) else {
            throw .sampleRateOutOfRange(sampleRate)
        }
        for (what, value) in [("baud", baud), ("mark", mark), ("space", space)] {
            guard value.isFinite, value > 0 else { throw .nonPositive(what, value) }
        }
        guard mark != space else { throw .markEqualsSpace(mark) }
        let nyquist = sampleRate / 2
        for (what, tone) in [("mark", mark), ("space", space)] where tone >= nyquist {
            throw .toneAboveNyquist(what, tone, sampleRate)
        }
        guard sampleRate / baud >= 4 else { throw .baudTooHigh(baud, sampleRate) }
        guard abs(mark - space) >= baud / 2 else { throw .tonesTooClose(mark, space, baud) }
    }

    /// Returns a copy with any of the three parameters replaced; the name becomes
    /// "custom" when something actually changed.
    public func overriding(baud: Double? = nil, mark: Double? = nil, space: Double? = nil) -> ModemProfile {
        var copy = self
        if let baud { copy.baud = baud }
        if let mark { copy.mark = mark }
        if let space { copy.space = space }
        if copy != self { copy.name = "custom" }
        return copy
    }
}

extension ModemProfile {
    /// 1225 baud, 4900/7350 Hz: the SoftModem library's default and this tool's.
    public static let softmodem1225 = ModemProfile(name: "softmodem-1225", baud: 1225, mark: 7350, space: 4900)
    public static let softmodem2450 = ModemProfile(name: "softmodem-2450", baud: 2450, mark: 7350, space: 4900)
    public static let softmodem630 = ModemProfile(name: "softmodem-630", baud: 630, mark: 6300, space: 3150)
    public static let softmodem315 = ModemProfile(name: "softmodem-315", baud: 315, mark: 3150, space: 1575)
    public static let softmodem126 = ModemProfile(name: "softmodem-126", baud: 126, mark: 1764, space: 882)
    /// The "low frequencies" sketch override used by WebJack: 1225 baud, 2450/4900 Hz.
    public static let webjack1225 = ModemProfile(name: "webjack-1225", baud: 1225, mark: 4900, space: 2450)
    /// Bell 103 originate side, for cross-checks with other modems.
    public static let bell103 = ModemProfile(name: "bell103", baud: 300, mark: 1270, space: 1070)
    /// Bell 202, for cross-checks with other modems.
    public static let bell202 = ModemProfile(name: "bell202", baud: 1200, mark: 1200, space: 2200)

    /// Every built-in FSK profile, default first.
    public static let builtIn: [ModemProfile] = [
        .softmodem1225, .softmodem2450, .softmodem630, .softmodem315, .softmodem126,
        .webjack1225, .bell103, .bell202,
    ]

    /// The built-in profile called `name`, or nil.
    public static func named(_ name: String) -> ModemProfile? {
        builtIn.first { $0.name == name.lowercased() }
    }
}

func formatHz(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
