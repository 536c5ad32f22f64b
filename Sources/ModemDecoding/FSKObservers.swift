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

    public func wantsSamples(inBurst: Bool) -> Bool { inBurst && adapter.wantsSamples }

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

    public func burstEnded() -> BurstObservation? { nil }
}

/// `-v`: the FFTW measurement of each FSK burst's real tones, appended to its report line.
public final class SpectrumObserver: DecodeObserver {
    private let analyzer: BurstSpectrumAnalyzer

    public init(settings: FSKSettings, sampleRate: Double) {
        analyzer = BurstSpectrumAnalyzer(profile: settings.profile, sampleRate: sampleRate)
    }

    public func wantsSamples(inBurst: Bool) -> Bool { true }

    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout FSKDemodulator, events: ArraySlice<ModemEvent>
    ) {
        analyzer.process(samples)
    }

    public func burstEnded() -> BurstObservation? {
        let (mark, space) = analyzer.measurement()
        analyzer.reset()
        return .spectrum(mark: mark, space: space)
    }
}
