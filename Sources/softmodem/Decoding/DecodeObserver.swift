import ModemDSP
import ModemSpectrum

/// Something that watches one channel's signal beside its receiver: the tone adapter, the
/// `-v` spectrum analyser. A decode session calls it once per step (never per sample), so
/// observers are plugged in rather than wired into the loop.
protocol DecodeObserver<Receiver>: AnyObject {
    associatedtype Receiver: ModemReceiver
    /// Whether the next step's samples are needed as floats (16-bit input is converted
    /// only when some observer says so), given whether the receiver is inside a burst.
    func wantsSamples(inBurst: Bool) -> Bool
    /// After the receiver processed a step: its samples (empty when not wanted) and events.
    func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout Receiver, events: ArraySlice<ModemEvent>)
    /// A burst ended: text to append to its `-v` line ("" for nothing).
    func burstEnded() -> String
    /// True while the chosen channel's events must wait (a check of the signal is under way).
    var holdsOutput: Bool { get }
    /// True when the chosen channel's events are to be dropped (the check failed).
    var withholdsOutput: Bool { get }
    /// The input ended: settle what is pending; a line for stderr, or nil.
    func inputEnded(decodedBytes: Int) -> String?
}

extension DecodeObserver {
    var holdsOutput: Bool { false }
    var withholdsOutput: Bool { false }
    func inputEnded(decodedBytes: Int) -> String? { nil }
}

/// Follows an off-frequency FSK sender: measures each burst's tones (FFTW) and retunes the
/// demodulator between bursts (see ``ToneAdapter``).
final class ToneAdapterObserver: DecodeObserver {
    private let adapter: ToneAdapter
    private let verbose: Bool

    init(settings: FSKSettings, sampleRate: Double, verbose: Bool) {
        adapter = ToneAdapter(profile: settings.profile, sampleRate: sampleRate)
        self.verbose = verbose
    }

    func wantsSamples(inBurst: Bool) -> Bool { inBurst && adapter.wantsSamples }

    func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout FSKDemodulator, events: ArraySlice<ModemEvent>)
    {
        // Without floats the adapter still sees the burst state and the events.
        guard let tones = adapter.observe(samples, inBurst: receiver.isInBurst, events: events) else { return }
        guard (try? receiver.retune(mark: tones.mark, space: tones.space)) != nil else { return }
        if verbose {
            Diagnostics.info(
                "retuned to the sender's measured tones: mark \(Diagnostics.number(tones.mark, 1)) Hz, space \(Diagnostics.number(tones.space, 1)) Hz"
            )
        }
    }

    func burstEnded() -> String { "" }
}

/// `-v`: the FFTW measurement of each FSK burst's real tones, appended to its report line.
final class SpectrumObserver: DecodeObserver {
    private let analyzer: BurstSpectrumAnalyzer

    init(settings: FSKSettings, sampleRate: Double) {
        analyzer = BurstSpectrumAnalyzer(profile: settings.profile, sampleRate: sampleRate)
    }

    func wantsSamples(inBurst: Bool) -> Bool { true }

    func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout FSKDemodulator, events: ArraySlice<ModemEvent>)
    {
        analyzer.process(samples)
    }

    func burstEnded() -> String {
        let (mark, space) = analyzer.measurement()
        analyzer.reset()
        func tone(_ t: ToneMeasurement?) -> String {
            t.map { "\(Diagnostics.number($0.frequency, 1)) Hz at \(Diagnostics.number($0.levelDBFS)) dBFS" }
                ?? "not found"
        }
        return "; spectrum: mark \(tone(mark)), space \(tone(space))"
    }
}
