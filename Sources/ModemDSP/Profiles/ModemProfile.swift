/// The tones and bit rate of one binary FSK modem.
///
/// Mark (a 1 bit, also the idle and stop level) and space (a 0 bit, the start bit) are
/// given in hertz; `baud` in bits per second. SoftModem's mark is always the higher tone,
/// but nothing here requires that: Bell 103 answer-side profiles and user overrides may
/// swap them. Values are validated against a sample rate by ``validate(sampleRate:)``.
public struct ModemProfile: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name used on the command line, or "custom" after an override.
    public var name: String
    /// Bit rate, in baud.
    public var baud: Double
    /// Mark tone (1 bits, idle and stop bits), in Hz.
    public var mark: Double
    /// Space tone (0 bits and the start bit), in Hz.
    public var space: Double

    /// What the command line's encoders (`encode`, `tx`, `term`, `serial`, `send`) send for
    /// this profile when it is not ``baud``, ``mark`` and ``space``: a board whose receiver
    /// does not read what the board itself sends (SoftModem at "126"). Nil for every other
    /// profile. Receivers, and a modulator given the profile itself (a model of the board),
    /// use ``baud``, ``mark`` and ``space``.
    public var encoderTones: Tones?

    /// A bit rate and two tones.
    public struct Tones: Sendable, Hashable, Codable {
        /// Bit rate, in baud.
        public var baud: Double
        /// Mark tone, in Hz.
        public var mark: Double
        /// Space tone, in Hz.
        public var space: Double
        /// Tones of these values, not checked.
        public init(baud: Double, mark: Double, space: Double) {
            self.baud = baud
            self.mark = mark
            self.space = space
        }
    }

    /// A profile of these values, not checked until ``validate(sampleRate:)``; with no
    /// `encoderTones`, encoders send the profile itself.
    public init(name: String, baud: Double, mark: Double, space: Double, encoderTones: Tones? = nil) {
        self.name = name
        self.baud = baud
        self.mark = mark
        self.space = space
        self.encoderTones = encoderTones
    }

    /// The profile an encoder sends: ``encoderTones`` when set, else this one.
    public var encoded: ModemProfile {
        guard let t = encoderTones else { return self }
        return ModemProfile(name: name, baud: t.baud, mark: t.mark, space: t.space)
    }

    /// The name with bit rate and tones, e.g. "bell103 (300 baud, mark 1270 Hz, space 1070 Hz)".
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
        if copy != self {
            copy.name = "custom"
            copy.encoderTones = nil
        }
        return copy
    }
}

extension ModemProfile {
    /// 1225 baud, 4900/7350 Hz: the SoftModem library's default and this tool's.
    public static let softmodem1225 = ModemProfile(name: "softmodem-1225", baud: 1225, mark: 7350, space: 4900)
    /// 2450 baud on the same 4900/7350 Hz tones as ``softmodem1225`` (the header's own values).
    public static let softmodem2450 = ModemProfile(name: "softmodem-2450", baud: 2450, mark: 7350, space: 4900)
    /// What an Arduino with the library at "630" really sends: its integer timer arithmetic
    /// gives 6579/3205 Hz with mark bits of 1520 us and space bits of 1560 us (mean 649.4
    /// baud) on a 16 MHz board and on an 8 MHz one alike. The header's 630 baud, 6300/3150 Hz
    /// (``softModemHeaders``) is 3 % slow for the board's bits: pinned to it, a byte in
    /// 256 of the real firmware's came out wrong. The board's receiver takes these values
    /// as well as the header's (proven in emulation at 0.5 and 1.0 V).
    public static let softmodem630 = ModemProfile(name: "softmodem-630", baud: 649.4, mark: 6579, space: 3205)
    /// What an Arduino at "315" really sends: 3289/1603 Hz, bits of 3040/3120 us (mean
    /// 324.7 baud), at 16 and 8 MHz; the header says 315 baud, 3150/1575 Hz.
    public static let softmodem315 = ModemProfile(name: "softmodem-315", baud: 324.7, mark: 3289, space: 1603)
    /// What a 16 MHz Arduino (Uno, Nano) at "126" really sends: 1953/919 Hz with mark bits
    /// of 7168 us and space bits of 7616 us (mean 135.3 baud); the header says 126 baud,
    /// 1764/882 Hz. The encoder sends 130.6 baud at 1858/900 Hz instead
    /// (``midpoint126``): the board's receiver counts tone cycles against the header's
    /// periods and does not read its own tones (28 of 256 bytes, in emulation).
    public static let softmodem126 = ModemProfile(
        name: "softmodem-126", baud: 135.3, mark: 1953, space: 919, encoderTones: midpoint126)
    /// What an 8 MHz Arduino (3.3 V Pro Mini, Fio, LilyPad) at "126" really sends: its
    /// timer prescalers give about 1836/893 Hz with bits of about 7612/7844 us (129.4 baud).
    /// A receiver pinned to the 16 MHz board's values misreads it, and the other way round.
    /// The encoder sends ``midpoint126`` as for ``softmodem126``.
    public static let softmodem126At8MHz = ModemProfile(
        name: "softmodem-126-8mhz", baud: 129.4, mark: 1836, space: 893, encoderTones: midpoint126)
    /// What the encoder sends for both "126" profiles: between what the two boards send,
    /// read by both boards' receivers at 0.5 and 1.0 V and by receivers pinned to either
    /// board's values (all proven in emulation).
    public static let midpoint126 = Tones(baud: 130.6, mark: 1858, space: 900)
    /// The "low frequencies" sketch override used by WebJack: 1225 baud, 2450/4900 Hz.
    public static let webjack1225 = ModemProfile(name: "webjack-1225", baud: 1225, mark: 4900, space: 2450)
    /// Bell 103 originate side, for cross-checks with other modems.
    public static let bell103 = ModemProfile(name: "bell103", baud: 300, mark: 1270, space: 1070)
    /// Bell 202, for cross-checks with other modems.
    public static let bell202 = ModemProfile(name: "bell202", baud: 1200, mark: 1200, space: 2200)

    /// The values the library's header (`SoftModem.h`) gives each SoftModem rate, as a
    /// sketch `#define`s them, by profile name: what the board's timer arithmetic starts
    /// from (``softmodem630`` and below describe what comes out instead).
    public static let softModemHeaders: [String: ModemProfile] = [
        "softmodem-1225": softmodem1225, "softmodem-2450": softmodem2450,
        "softmodem-630": ModemProfile(name: "softmodem-630", baud: 630, mark: 6300, space: 3150),
        "softmodem-315": ModemProfile(name: "softmodem-315", baud: 315, mark: 3150, space: 1575),
        "softmodem-126": ModemProfile(name: "softmodem-126", baud: 126, mark: 1764, space: 882),
    ]

    /// Every built-in FSK profile, default first.
    public static let builtIn: [ModemProfile] = [
        .softmodem1225, .softmodem2450, .softmodem630, .softmodem315, .softmodem126, .softmodem126At8MHz,
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
