/// A burst's bit clock and level, learned from its characters: the bit length (as a scale
/// of the nominal one), the last character's power and end, and how long the clock has run.
///
/// On the clock, each character's timing error nudges the clock's phase and rate (a
/// second-order loop, ``track(error:expected:span:tolerance:)``) instead of resetting them:
/// at low SNR a single character's best alignment wanders with the noise, the sender's
/// clock does not.
struct BitClock: Sendable {
    /// Bit length relative to the nominal one.
    private(set) var scale = 1.0
    /// Signal power of the last accepted character (0 before the first).
    var power = 0.0
    /// Segment where the last accepted character ended.
    var lastEnd = -Double.infinity
    /// Characters decided on this clock since it started.
    private(set) var characters = 0

    /// True when `p` is at the burst's level (within ``FSKTuning/levelLow`` and
    /// ``FSKTuning/levelHigh`` of the last character's power): the clock only vouches for
    /// characters of the same sender.
    @inline(__always)
    func isAtLevel(_ p: Double) -> Bool {
        p > power * FSKTuning.levelLow && p < power * FSKTuning.levelHigh
    }

    /// True when `p` is far under the burst's level (``FSKTuning/tailLevel`` of the last
    /// character's power or less).
    @inline(__always)
    func isFarBelowLevel(_ p: Double) -> Bool {
        p <= power * FSKTuning.tailLevel
    }

    /// True when a window of `samples` samples with detrended energy `energy` still
    /// carries the burst (``FSKTuning/burstEnergyFraction`` of its level).
    @inline(__always)
    func carriesBurst(energy: Double, samples: Double) -> Bool {
        energy > power * samples * FSKTuning.burstEnergyFraction
    }

    /// True when a window whose two tones hold `p` per sample (mark plus space energy)
    /// holds the burst's tones (``FSKTuning/lostSlotToneFraction`` of its level), as a
    /// character whose start bit noise flipped does. Why: where a DC offset stops with its
    /// tones, the step carries the burst's energy for a bit but little of it at either
    /// tone (0.15 of the level); taken for a lost character, a clean burst came out with
    /// a damaged one (exit status 1), and with no options the wrong tone order then tied.
    @inline(__always)
    func holdsTones(_ p: Double) -> Bool {
        p > power * FSKTuning.lostSlotToneFraction
    }

    /// Starts a clock at a burst's first character, at bit-length scale `scale`.
    mutating func start(scale: Double) {
        self.scale = scale
        characters = 0
    }

    /// Moves the clock by a character's timing error `error` (segments; it started at
    /// `expected + error`) over a character of `span` segments, the rate kept within
    /// +-`tolerance`; returns where the next character is expected.
    ///
    /// Gear shifting: the loop pulls in fast while the clock is young, then settles to
    /// low-jitter gains.
    mutating func track(error: Double, expected: Double, span: Double, tolerance: Double) -> Double {
        let young = characters < FSKTuning.youngClockCharacters
        characters += 1
        scale = min(
            max(scale + (young ? FSKTuning.youngRateGain : FSKTuning.settledRateGain) * error / span, 1 - tolerance),
            1 + tolerance)
        return expected + (young ? FSKTuning.youngPhaseGain : FSKTuning.settledPhaseGain) * error + span * scale
    }
}
