/// What an input held, for the line a decoder prints when nothing decoded (or when a
/// pinned profile does not match what it hears).
///
/// Made by ``SignalSurvey/diagnosis(pinned:)`` from a whole input. Levels are in dBFS as
/// mean power (a full-scale sine reads -3 dBFS); peaks in dBFS of the sample magnitude.
public enum Diagnosis: Sendable, Equatable, Codable {
    /// No samples at all, or only digital zero.
    case silence
    /// Sound far too weak to carry a modem: the loudest stretch's level.
    case tooQuiet(levelDBFS: Double)
    /// Nothing tonal between 300 Hz and 0.45 x the sample rate: the strongest tone (nil when
    /// there is none at all, as in white noise) and the input's loudest level.
    case noModemTones(strongest: Double?, strongestDBFS: Double?, levelDBFS: Double)
    /// Two tones like a modem's, but their timing fits no character format.
    case tonesWithoutTiming(lower: Double, upper: Double, levelDBFS: Double)
    /// A two-tone modem: its measured tones, bit rate, and the built-in profile it matches
    /// (nil when none does).
    case modem(ModemSignature)
    /// More than `fraction` of the samples are flat tops at full scale (or beyond it): the
    /// input clips.
    indirect case clipping(fraction: Double, then: Diagnosis?)

    static func hz(_ x: Double) -> String { String(Int(x.rounded())) }
    static func db(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}

/// A two-tone modem as measured: tones, bit rate, mark, and the profile it matches.
public struct ModemSignature: Sendable, Equatable, Codable {
    /// Measured mark tone, in Hz.
    public var mark: Double
    /// Measured space tone, in Hz.
    public var space: Double
    /// Measured bit rate, in baud.
    public var baud: Double
    /// The built-in profile within 5 % of every measured value, if any.
    public var profile: ModemProfile?
    /// Each tone's bit length when they differ noticeably (`baud` is then their mean rate).
    public var toneBits: ToneBitLengths?

    /// A signature of these measurements; ``profile`` becomes the first built-in profile within
    /// 5 % of all three (nil if none), and ``toneBits`` starts nil.
    public init(mark: Double, space: Double, baud: Double) {
        self.mark = mark
        self.space = space
        self.baud = baud
        profile = ModemProfile.builtIn.first { p in
            ModemProfile.isWithinTolerance(p.baud, of: baud) && ModemProfile.isWithinTolerance(p.mark, of: mark)
                && ModemProfile.isWithinTolerance(p.space, of: space)
        }
    }

    /// The same signal with mark and space the other way round (its profile recomputed;
    /// ``toneBits`` kept as measured).
    public var swappedTones: ModemSignature {
        var s = ModemSignature(mark: space, space: mark, baud: baud)
        s.toneBits = toneBits
        return s
    }

    /// True when `profile` would decode this signal (bit rate and tones within 5 %).
    public func fits(_ profile: ModemProfile) -> Bool {
        ModemProfile.isWithinTolerance(profile.baud, of: baud) && ModemProfile.isWithinTolerance(profile.mark, of: mark)
            && ModemProfile.isWithinTolerance(profile.space, of: space)
    }

    /// E.g. "webjack-1225 (1225 baud, mark 4900 Hz, space 2450 Hz)" or "FSK at 600 baud, mark
    /// ...", or "FSK at 600 baud, tones 1600 and 2600 Hz" when ``markIsProven`` is false.
    public var summary: String {
        if !markIsProven {
            let (low, high) = (min(mark, space), max(mark, space))
            return "FSK at \(Diagnosis.hz(baud)) baud, tones \(Diagnosis.hz(low)) and \(Diagnosis.hz(high)) Hz"
        }
        let measured = "\(Diagnosis.hz(baud)) baud, mark \(Diagnosis.hz(mark)) Hz, space \(Diagnosis.hz(space)) Hz"
        if let profile { return "\(profile.name) (\(measured))" }
        return "FSK at \(measured)"
    }

    /// True when a built-in profile or a known modem's tone convention says which tone is
    /// mark. A pair of no known modem has its mark from how the survey read the line,
    /// which text sent back to back cannot prove (inverted and shifted by a bit, 8N1 text
    /// is 8N1 too): minimodem's `-M 2600 -S 1600` was described the wrong way round.
    public var markIsProven: Bool { profile != nil || ToneConvention.oriented(self) != nil }
}
