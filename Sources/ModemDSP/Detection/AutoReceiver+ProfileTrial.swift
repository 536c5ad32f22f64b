import ModemFraming

// Naming a burst by trial decodes with the built-in profiles, when its bit timing cannot be
// measured.

extension AutoReceiver {
    /// A burst too short to measure (a character or two, as from a sketch that writes a
    /// byte now and then), or whose timing the analysis cannot read (a sender that restarts
    /// its phase every bit): the slowest built-in profile that reads it cleanly
    /// (``profileReading(_:_:canWait:onesOnly:)``); only profiles whose tones hold
    /// ``shortBurstToneShare`` of the burst's sound are tried.
    ///
    /// The slowest, because a faster profile with the same tones can read a slower
    /// sender's bits as pairs of its own and still frame characters, while a slower one
    /// cannot read a faster sender cleanly (two tones in one bit).
    ///
    /// A burst on a profile's tones the other way round (mark on Bell 103's 1070 Hz) that
    /// opens on the profile's space and reads cleanly that way is given the profile, read
    /// the convention's way: the opening then doubts the convention
    /// (``conventionDoubted(_:_:)``), and the burst's two readings decide which is printed.
    /// Why: such a sender restarting its phase every bit measured no timing (its sound on
    /// the 300 Hz comb), and the profile's reading alone breaks, so nothing was printed.
    func profileTrial(_ samples: [Float], canWait: Bool) -> FormatChoice? {
        // Speech and music pass single characters now and then; what they cannot do is
        // put nearly all their sound on two tones.
        let b = SignalSurvey.blockLength
        var padded = samples
        padded.append(contentsOf: repeatElement(0, count: (b - samples.count % b) % b))
        let blocks = stride(from: 0, to: padded.count, by: b).map { padded[$0..<($0 + b)] }
        let spectrum = BandSpectrum(blocks: blocks, sampleRate: sampleRate)
        // Tones a slower profile read as nothing but all-ones characters: a faster profile
        // with the same tones reads those lone space bits as pairs of its own bits and
        // still frames them (0xFF at 1225 baud is 0xFE at 2450), which proves neither.
        var onesOnly: [ModemProfile] = []
        for profile in ModemProfile.builtIn.sorted(by: { $0.baud < $1.baud }) {
            // Within a bit rate of each tone: the main lobe of a bit's tone. A sender that
            // restarts its phase every bit puts its sound on lines a bit rate apart (Bell
            // 103: 900, 1200 and 1500 Hz); within half a bit rate, they held 60 % of it.
            guard
                spectrum.share(near: [profile.mark, profile.space], width: max(profile.baud, 100))
                    >= Self.shortBurstToneShare
            else {
                continue
            }
            if onesOnly.contains(where: { $0.hasTones(of: profile) }) { continue }
            if let choice = profileReading(profile, samples, canWait: canWait, onesOnly: &onesOnly) {
                return choice
            }
            let signature = ModemSignature(mark: profile.mark, space: profile.space, baud: profile.baud)
            var ignored: [ModemProfile] = []
            let other = againstConvention(signature, samples) { swapped in
                let p = ModemProfile(name: "custom", baud: swapped.baud, mark: swapped.mark, space: swapped.space)
                return profileReading(p, samples, canWait: canWait, onesOnly: &ignored)
            }
            if let other { return other }
        }
        return nil
    }

    /// `profile`'s reading of a burst, when it names the profile: 8N1 (or the format its
    /// line bits prove) with no error, a character other than clicks
    /// (``FrameFormat/readsAsClicks(_:)``) and a mean Eb/N0 of ``shortBurstEbN0`` or more
    /// (``provenBurstEbN0`` for a reading that ``proves(_:_:_:)`` its profile), with a fresh
    /// demodulator; nil when it does not, adding `profile` to `onesOnly` when it read only
    /// clicks.
    ///
    /// Its format is proven from the line bits when the characters are enough
    /// (``provenFormat(_:_:)``); while they are clean but too few and `canWait`, the burst
    /// waits for more blocks (``FormatChoice/waitForMore``), so a slow 8E1 sender whose
    /// first characters happen to read as 8N1 is not pinned to 8N1.
    func profileReading(_ profile: ModemProfile, _ samples: [Float], canWait: Bool, onesOnly: inout [ModemProfile])
        -> FormatChoice?
    {
        var events: [ModemEvent] = []
        let signature = ModemSignature(mark: profile.mark, space: profile.space, baud: profile.baud)
        guard var chosen = trial(profile, .eightN1, samples, into: &events) else { return nil }
        var format = FrameFormat.eightN1
        // Enough clean characters prove the format as for a measured burst (a Bell 103
        // burst, whose narrow shift the analysis often cannot measure, may be 8E1).
        let proof = provenFormat(signature, samples)
        if case .proven(let proven, let demod) = proof, proven != .eightN1,
            trial(profile, proven, samples, into: &events) != nil
        {
            (format, chosen) = (proven, demod)
        }
        // A lone space bit between marks (a tone switching, a click) reads as all ones
        // (0xFF in 8N1). The last character of a proven format, or of an 8N1 reading
        // long enough to prove one, may be cut by the end of the blocks (a slow 11-bit
        // sender's tenth character in 8N1); a burst of a few characters must be whole.
        let cut = format != .eightN1 || events.count >= FormatProof.minimumFrames
        let whole = cut ? events.dropLast() : events[...]
        // Lone space bits far apart in every character are clicks, not a sender: a Bell
        // 103 burst that restarts its tones' phase every bit, read as Bell 202 at 96 kHz,
        // gave only 0x7F and 0xFF (Eb/N0 25.7 dB).
        guard !events.isEmpty else { return nil }
        guard !format.readsAsClicks(events) else {
            onesOnly.append(profile)
            return nil
        }
        guard whole.allSatisfy({ $0.kind == .byte }) else { return nil }
        let ebN0 = events.reduce(0.0) { $0 + ($1.fsk?.ebN0 ?? 0) } / Double(events.count)
        guard ebN0 >= Self.shortBurstEbN0 || (ebN0 >= Self.provenBurstEbN0 && Self.proves(proof, events, profile))
        else { return nil }
        // Clean so far, but too few characters to tell 8N1 from a format with parity.
        if case .tooFew = proof, mayWait(canWait, samples.count, baud: profile.baud) { return .waitForMore }
        return .chosen(signature, format, chosen)
    }

    /// Mean Eb/N0 (dB) that names a profile when its reading proves its format and measures
    /// the profile's tones (``proves(_:_:_:)``): a sender that restarts its phase every
    /// bit (Bell 103, its tones on a 300 Hz comb) reads clean at Eb/N0 24-25 dB, and
    /// squelched characters (10 dB) are far below. The bound alone does not tell such a
    /// burst from Bell 202's reading of it (22.9 dB): the tones do.
    static let provenBurstEbN0 = 20.0

    /// Share of a short burst's sound that must lie within a bit rate of the profile's tones.
    static let shortBurstToneShare = 0.8
    /// Mean Eb/N0 (dB) a short burst's characters need to name a profile by trial.
    static let shortBurstEbN0 = 25.0
}
