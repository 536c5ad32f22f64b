public import ModemDSP

/// Measures each burst's real tones with FFTW and proposes them to the demodulator, so a
/// sender that is off frequency (a board with a slow clock, a phone app that rounds its
/// tones) is correlated at its own frequencies from the next burst on.
///
/// Cheap enough to run on every decode:
/// * A burst whose first character the demodulator itself measured on the current tuning
///   (``ModemEvent/markFrequency`` and ``ModemEvent/spaceFrequency``, from the
///   phase turn between bit halves, within ``screenTolerance``) is not analysed at all: an
///   on-frequency sender, the usual case, costs nothing. One character's estimate is
///   noisy, so in noise an on-frequency burst may still be analysed (which costs only the
///   time), and a sender just past the retune threshold may read as on tuning and be
///   passed over, where retuning would gain nothing measurable anyway; a sender 1 % or
///   more off reads clearly off.
/// * Any other burst is analysed (two FFTs, an inverse FFT and an instantaneous frequency
///   per sample, about 1.5 ms per burst) on its first ``framesPerBurst`` analysis frames
///   only, not the whole stream.
///
/// Feed it the same samples as the demodulator, with the demodulator's
/// ``FSKDemodulator/isInBurst`` and the events it reported for those samples.
public final class ToneAdapter {
    /// The tones the demodulator was set to originally (the profile's nominal tones).
    public let nominal: ModemProfile
    /// Frames (of about 24 bits) analysed per burst.
    public let framesPerBurst: Int
    /// Retune only when a measured tone moved by more than this fraction from the current
    /// tuning (0.005 = 0.5 %): smaller offsets cost nothing measurable.
    public let threshold: Double
    /// A burst whose first measured character reads both tones within this fraction of the
    /// current tuning is not analysed (0.0025 = 0.25 %, half of ``threshold``).
    public let screenTolerance: Double
    /// Bursts analysed with FFTW so far. A burst here is a stretch the demodulator followed
    /// one bit clock through, seen at the granularity of the chunks fed: characters closer
    /// together than its idle limit (64 bits) count as one, and one still under way at the
    /// end of the input is not counted.
    public private(set) var burstsAnalysed = 0
    /// Bursts the screen found on the current tuning, not analysed.
    public private(set) var burstsScreened = 0
    private let analyzer: BurstSpectrumAnalyzer
    private var current: (mark: Double, space: Double)
    private var wasInBurst = false
    private enum Verdict { case undecided, analyse, onTuning }
    /// The screen's verdict on the burst under way.
    private var verdict = Verdict.undecided

    /// An adapter tuned to `profile`'s nominal tones at `sampleRate` Hz; the other values are
    /// the properties of the same names.
    public init(
        profile: ModemProfile, sampleRate: Double, framesPerBurst: Int = 16, threshold: Double = 0.005,
        screenTolerance: Double = 0.0025
    ) {
        nominal = profile
        self.framesPerBurst = framesPerBurst
        self.threshold = threshold
        self.screenTolerance = screenTolerance
        analyzer = BurstSpectrumAnalyzer(profile: profile, sampleRate: sampleRate)
        current = (profile.mark, profile.space)
    }

    /// False when the next ``observe(_:inBurst:events:)`` in a burst will not read its
    /// samples (the burst was screened out, or enough of it is analysed): a caller holding
    /// samples in another format need not convert them, and may pass an empty chunk.
    /// Outside a burst the samples are never read.
    public var wantsSamples: Bool {
        verdict != .onTuning && analyzer.framesAccumulated < framesPerBurst
    }

    /// Feeds a chunk the demodulator has just processed, with the events it reported for it;
    /// returns new (mark, space) tones when a burst has ended and measured clearly off the
    /// current tuning, else nil.
    ///
    /// Measured tones further than 5 % from nominal are never proposed (real senders are
    /// within 3 %), and each proposal moves the tuning only halfway towards the measurement,
    /// so one burst measured wrong (noise, a transient) cannot throw the tuning off. Events
    /// without both tones measured (NaN) say nothing to the screen; until one with both
    /// arrives, the burst is analysed as if the screen did not exist.
    public func observe(
        _ samples: UnsafeBufferPointer<Float>, inBurst: Bool,
        events: some Sequence<ModemEvent>
    ) -> (mark: Double, space: Double)? {
        defer { wasInBurst = inBurst }
        if inBurst {
            if verdict == .undecided {
                for e in events {
                    guard let m = e.fsk, m.markFrequency.isFinite && m.spaceFrequency.isFinite else { continue }
                    let near =
                        abs(m.markFrequency / current.mark - 1) <= screenTolerance
                        && abs(m.spaceFrequency / current.space - 1) <= screenTolerance
                    verdict = near ? .onTuning : .analyse
                    break
                }
            }
            if verdict != .onTuning && analyzer.framesAccumulated < framesPerBurst { analyzer.process(samples) }
            return nil
        }
        guard wasInBurst else { return nil }
        // The burst just ended: judge what it sounded like.
        defer {
            analyzer.reset()
            verdict = .undecided
        }
        if verdict == .onTuning {
            burstsScreened += 1
            return nil
        }
        burstsAnalysed += 1
        guard analyzer.framesAccumulated >= 4 else { return nil }
        let (mark, space) = analyzer.measurement()
        guard let m = mark?.frequency, let s = space?.frequency,
            ModemProfile.isWithinTolerance(m, of: nominal.mark), ModemProfile.isWithinTolerance(s, of: nominal.space)
        else { return nil }
        let moved = abs(m / current.mark - 1) > threshold || abs(s / current.space - 1) > threshold
        guard moved else { return nil }
        current = ((current.mark + m) / 2, (current.space + s) / 2)
        return current
    }
}
