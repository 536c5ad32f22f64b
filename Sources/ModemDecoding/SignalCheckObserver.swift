public import ModemDSP

/// Says what an input held when nothing decoded from it, and keeps a pinned FSK profile
/// that does not match the signal from printing bytes.
///
/// It surveys the channel (``SignalSurvey``: level, peak, clipping, the loudest blocks)
/// until the first byte and, for a pinned profile, until the first burst is checked: the
/// chosen channel's events wait (``holdsOutput``) until the receiver has been inside a
/// burst for ``checkBlocks`` survey blocks, the burst ends, or the input ends. Then the
/// survey's analysis of the loudest blocks decides: tones or a bit rate more than
/// ``tolerance`` away from the profile's withhold the input's bytes; anything else (a
/// match, or an analysis that finds no modem) lets them through. With a matching profile
/// the cost is the survey of the first burst (a few tenths of a second of audio) and a
/// delay of the first bytes by as much.
///
/// Edge cases: the first burst decides for the whole input, so a recording holding
/// several profiles is judged by its first. The tone check does not judge which tone is
/// mark (a short burst cannot always tell), only the pair.
public final class SignalCheckObserver<Receiver: ModemReceiver>: DecodeObserver {
    /// Where the check against the pinned profile stands.
    public enum Verdict: Equatable {
        case pending
        case matches
        case mismatch(ModemSignature)
    }

    /// Survey blocks (46 ms each at 44.1 kHz) of a burst that decide the check.
    public static var checkBlocks: Int { 6 }
    /// Largest relative difference of bit rate and tones that still matches (the tone
    /// adapter follows an Arduino's off-frequency tones, 2-5 % off).
    public static var tolerance: Double { 0.1 }

    private var survey: SignalSurvey
    private let pinned: ModemProfile?
    /// The check's outcome so far; ``Verdict/matches`` from the start when no profile is pinned.
    public private(set) var verdict: Verdict
    private var bytes = 0
    private var burstSamples = 0
    private var wasInBurst = false

    /// - Parameter pinned: the FSK profile to check the signal against; nil (auto,
    ///   HiJack) only surveys for the nothing-decoded line.
    public init(sampleRate: Double, pinned: ModemProfile?) {
        survey = SignalSurvey(sampleRate: sampleRate)
        self.pinned = pinned
        verdict = pinned == nil ? .matches : .pending
    }

    /// Holds events back while the verdict is pending.
    public var holdsOutput: Bool { verdict == .pending }
    /// Withholds events for good once the signal proved not to match the pinned profile.
    public var withholdsOutput: Bool {
        if case .mismatch = verdict { return true }
        return false
    }

    /// Needs samples until the first byte, and for as long as the verdict is pending.
    public func wantsSamples(inBurst: Bool) -> Bool { bytes == 0 || verdict == .pending }

    /// Surveys the step and counts its bytes; decides the verdict after ``checkBlocks`` blocks
    /// inside a burst, or when the burst ends.
    public func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout Receiver, events: ArraySlice<ModemEvent>)
    {
        guard wantsSamples(inBurst: false) else { return }
        survey.process(samples)
        for e in events where e.kind == .byte { bytes += 1 }
        guard verdict == .pending else { return }
        let inBurst = receiver.isInBurst
        if inBurst { burstSamples += samples.count }
        if burstSamples >= Self.checkBlocks * SignalSurvey.blockLength || (wasInBurst && !inBurst) { decide() }
        wasInBurst = inBurst
    }

    /// Adds nothing to the burst line.
    public func burstEnded() -> BurstObservation? { nil }

    /// Settles a pending verdict, then notes a profile mismatch or, when nothing decoded, what
    /// the survey found; nil otherwise.
    public func inputEnded(decodedBytes: Int) -> DecodeNote? {
        if verdict == .pending { decide() }
        if case .mismatch(let signature) = verdict, let pinned {
            return .profileMismatch(pinned: pinned, signal: signature)
        }
        guard decodedBytes == 0 else { return nil }
        return .nothingDecoded(survey.diagnosis())
    }

    private func decide() {
        guard let pinned else { return }
        var found = survey.diagnosis()
        if case .clipping(_, let then?) = found { found = then }
        guard case .modem(let signature) = found else {
            verdict = .matches
            return
        }
        guard !Self.matches(signature, pinned) else {
            verdict = .matches
            return
        }
        // Named by a built-in profile when one fits with mark and space the other way round
        // (the survey's guess of which tone is mark can miss on a short burst).
        let swapped = ModemSignature(mark: signature.space, space: signature.mark, baud: signature.baud)
        verdict = .mismatch(signature.profile == nil && swapped.profile != nil ? swapped : signature)
    }

    /// Bit rate and the tone pair (either way round) within ``tolerance``.
    ///
    /// A bit rate measured from runs can be off by a whole factor where the tones are right
    /// (a real 315-baud board's bytes measured at 649 baud): when the tones are a known
    /// modem's (``ToneConvention``) and that modem sends at the profile's rate, the rate
    /// measured does not count against it.
    public static func matches(_ signature: ModemSignature, _ profile: ModemProfile) -> Bool {
        func near(_ a: Double, _ b: Double) -> Bool { abs(a / b - 1) <= tolerance }
        let low = min(signature.mark, signature.space)
        let high = max(signature.mark, signature.space)
        guard near(low, min(profile.mark, profile.space)), near(high, max(profile.mark, profile.space)) else {
            return false
        }
        if near(signature.baud, profile.baud) { return true }
        // Only a rate that is none of the known modem's own: SoftModem's tones at 2450
        // baud are not softmodem-1225.
        let rates = ToneConvention.rates(signature.mark, signature.space)
        return rates.contains { near($0, profile.baud) } && !rates.contains { near($0, signature.baud) }
    }
}
