public import ModemDSP
import ModemSpectrum

/// Follows an off-frequency FSK sender: measures each burst's tones (FFTW) and retunes the
/// demodulator between bursts (see ``ToneAdapter``).
public final class ToneAdapterObserver: DecodeObserver {
    private let adapter: ToneAdapter
    private let reporter: any DecodeReporting

    /// - Parameter reporter: told of each retune when verbose.
    public init(settings: FSKSettings, sampleRate: Double, reporter: any DecodeReporting = SilentReporter()) {
        adapter = ToneAdapter(profile: settings.profile, sampleRate: sampleRate)
        self.reporter = reporter
    }

    /// Needs samples only inside a burst, and only while the adapter still reads them.
    public func wantsSamples(inBurst: Bool) -> Bool { inBurst && adapter.wantsSamples }

    /// Feeds the adapter and, when it has measured a burst's tones, retunes the demodulator to
    /// them (with a note when verbose); a retune that fails is skipped.
    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout FSKDemodulator, events: ArraySlice<ModemEvent>
    ) {
        // Without floats the adapter still sees the burst state and the events.
        guard let tones = adapter.observe(samples, inBurst: receiver.isInBurst, events: events) else { return }
        guard (try? receiver.retune(mark: tones.mark, space: tones.space)) != nil else { return }
        if reporter.verbose {
            reporter.note(.retuned(mark: tones.mark, space: tones.space))
        }
    }

    /// Adds nothing to the burst line: retunes are reported as notes.
    public func burstEnded() -> BurstObservation? { nil }
}

/// `-v`: the FFTW measurement of each FSK burst's real tones, appended to its report line.
public final class SpectrumObserver: DecodeObserver {
    private let analyzer: BurstSpectrumAnalyzer

    /// An analyser for the mark and space tones of `settings`' profile at `sampleRate` Hz.
    public init(settings: FSKSettings, sampleRate: Double) {
        analyzer = BurstSpectrumAnalyzer(profile: settings.profile, sampleRate: sampleRate)
    }

    /// Always needs samples.
    public func wantsSamples(inBurst: Bool) -> Bool { true }

    /// Feeds the step's samples to the spectrum analyser.
    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout FSKDemodulator, events: ArraySlice<ModemEvent>
    ) {
        analyzer.process(samples)
    }

    /// The mark and space tones measured since the last burst ended; resets the analyser.
    public func burstEnded() -> BurstObservation? {
        let (mark, space) = analyzer.measurement()
        analyzer.reset()
        return .spectrum(mark: mark, space: space)
    }
}
