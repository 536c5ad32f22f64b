public import ModemDSP

/// Which of the standard observers a decode runs: the one place that decides, for files and
/// live audio alike, so `rx`, `term` and `serial` follow an off-frequency sender exactly as
/// `decode` does.
///
/// The observers a modem gets, in the order they run:
/// - FSK: the signal check (against the pinned profile), the tone adapter, the spectrum;
/// - HiJack: the generation check, the signal check;
/// - auto: the detection report (always: it is what says why a burst was withheld), then the
///   signal check.
public struct ObserverPolicy: Sendable {
    /// Retune an FSK demodulator to each burst's measured tones, between bursts
    /// (``ToneAdapterObserver``). `decode --no-adapt` turns it off.
    public var followsTones: Bool
    /// Measure each FSK burst's real tones for its `-v` line (``SpectrumObserver``).
    public var measuresSpectrum: Bool
    /// Check the signal against the modem and say, when the input ends, why nothing was
    /// decoded (``SignalCheckObserver``). For inputs that end: a live capture has no end
    /// to summarise, and its check would hold characters back.
    public var checksSignal: Bool

    /// A policy with each observer on or off; by default it follows tones and checks the signal
    /// but measures no spectrum.
    public init(followsTones: Bool = true, measuresSpectrum: Bool = false, checksSignal: Bool = true) {
        self.followsTones = followsTones
        self.measuresSpectrum = measuresSpectrum
        self.checksSignal = checksSignal
    }

    /// Files and pipes: every check, the spectrum when `verbose`.
    public static func input(verbose: Bool, followsTones: Bool = true) -> ObserverPolicy {
        ObserverPolicy(followsTones: followsTones, measuresSpectrum: verbose, checksSignal: true)
    }

    /// Live capture: follows tones and measures them when `verbose`; no end-of-input check.
    public static func live(verbose: Bool) -> ObserverPolicy {
        ObserverPolicy(followsTones: true, measuresSpectrum: verbose, checksSignal: false)
    }
}

/// A receiver factory that knows its receivers' standard observers (``ObserverPolicy``).
public protocol ObservedReceiverFactory: ModemReceiverFactory {
    /// One channel's observers under `policy`; `reporter` takes their `-v` notes.
    func observers(_ policy: ObserverPolicy, sampleRate: Double, reporter: any DecodeReporting)
        -> [any DecodeObserver<Receiver>]
}

extension FSKSettings: ObservedReceiverFactory {
    /// FSK: the signal check against the pinned profile, then the tone adapter, then the spectrum,
    /// each as `policy` allows.
    public func observers(_ policy: ObserverPolicy, sampleRate: Double, reporter: any DecodeReporting)
        -> [any DecodeObserver<FSKDemodulator>]
    {
        var list: [any DecodeObserver<FSKDemodulator>] = []
        if policy.checksSignal { list.append(SignalCheckObserver(sampleRate: sampleRate, pinned: profile)) }
        if policy.followsTones {
            list.append(ToneAdapterObserver(settings: self, sampleRate: sampleRate, reporter: reporter))
        }
        if policy.measuresSpectrum { list.append(SpectrumObserver(settings: self, sampleRate: sampleRate)) }
        return list
    }
}

extension HiJackSettings: ObservedReceiverFactory {
    /// HiJack: the generation check always, then the signal check (a survey only) when `policy`
    /// asks for it.
    public func observers(_ policy: ObserverPolicy, sampleRate: Double, reporter: any DecodeReporting)
        -> [any DecodeObserver<HiJackDecoder>]
    {
        var list: [any DecodeObserver<HiJackDecoder>] = [HiJackGenerationObserver(pinned: generation)]
        if policy.checksSignal { list.append(SignalCheckObserver(sampleRate: sampleRate, pinned: nil)) }
        return list
    }
}

extension AutoSettings: ObservedReceiverFactory {
    /// Auto: the detection report always, then the signal check (a survey only) when `policy`
    /// asks for it.
    public func observers(_ policy: ObserverPolicy, sampleRate: Double, reporter: any DecodeReporting)
        -> [any DecodeObserver<AutoReceiver>]
    {
        // Detection first: when a burst was withheld its line says why, before the survey's
        // "nothing decoded".
        var list: [any DecodeObserver<AutoReceiver>] = [DetectionObserver(reporter: reporter)]
        if policy.checksSignal { list.append(SignalCheckObserver(sampleRate: sampleRate, pinned: nil)) }
        return list
    }
}
