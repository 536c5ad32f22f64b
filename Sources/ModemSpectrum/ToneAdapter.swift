public import ModemDSP

/// Measures each burst's real tones with FFTW and proposes them to the demodulator, so a
/// sender that is off frequency (a board with a slow clock, a phone app that rounds its
/// tones) is correlated at its own frequencies from the next burst on.
///
/// Cheap enough to run on every decode: the analyzer (an FFT, an inverse FFT and an
/// instantaneous frequency per sample) only sees the first ``framesPerBurst`` analysis
/// frames of each burst, not the whole stream. Feed it the same samples as the
/// demodulator, with the demodulator's ``FSKDemodulator/isInBurst`` after each chunk.
public final class ToneAdapter {
    /// The tones the demodulator was set to originally (the profile's nominal tones).
    public let nominal: ModemProfile
    /// Frames (of about 24 bits) analysed per burst.
    public let framesPerBurst: Int
    /// Retune only when a measured tone moved by more than this fraction from the current
    /// tuning (0.005 = 0.5 %): smaller offsets cost nothing measurable.
    public let threshold: Double
    private let analyzer: BurstSpectrumAnalyzer
    private var current: (mark: Double, space: Double)
    private var wasInBurst = false

    public init(profile: ModemProfile, sampleRate: Double, framesPerBurst: Int = 16, threshold: Double = 0.005) {
        nominal = profile
        self.framesPerBurst = framesPerBurst
        self.threshold = threshold
        analyzer = BurstSpectrumAnalyzer(profile: profile, sampleRate: sampleRate)
        current = (profile.mark, profile.space)
    }

    /// Feeds a chunk the demodulator has just processed; returns new (mark, space) tones
    /// when a burst has ended and measured clearly off the current tuning, else nil.
    ///
    /// Measured tones further than 5 % from nominal are never proposed (real senders are
    /// within 3 %), and each proposal moves the tuning only halfway towards the measurement,
    /// so one burst measured wrong (noise, a transient) cannot throw the tuning off.
    public func observe(_ samples: UnsafeBufferPointer<Float>, inBurst: Bool) -> (mark: Double, space: Double)? {
        defer { wasInBurst = inBurst }
        if inBurst {
            if analyzer.framesAccumulated < framesPerBurst { analyzer.process(samples) }
            return nil
        }
        guard wasInBurst else { return nil }
        // The burst just ended: judge what it sounded like.
        defer { analyzer.reset() }
        guard analyzer.framesAccumulated >= 4 else { return nil }
        let (mark, space) = analyzer.measurement()
        guard let m = mark?.frequency, let s = space?.frequency,
              abs(m / nominal.mark - 1) <= 0.05, abs(s / nominal.space - 1) <= 0.05 else { return nil }
        let moved = abs(m / current.mark - 1) > threshold || abs(s / current.space - 1) > threshold
        guard moved else { return nil }
        current = ((current.mark + m) / 2, (current.space + s) / 2)
        return current
    }
}
