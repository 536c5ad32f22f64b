import ModemFraming

// Opening a burst: what modem it is, in which character format, and the demodulator for it.

extension AutoReceiver {
    /// Analyses the samples gathered since `start` and, for a modem, starts decoding them
    /// and returns true; false (changing nothing) for anything else, and, when `canWait`
    /// (more of the burst can still be gathered), for a modem whose character format its
    /// characters so far are too few to prove. With `analysing`, only that many of the
    /// samples are analysed and tried (a burst that ended before the samples do); all of
    /// them are decoded.
    mutating func startBurst(
        from start: Int64, canWait: Bool, analysing: Int? = nil, into events: inout [ModemEvent]
    ) -> BurstStart {
        let analysed = history(from: start)
        let first = samplesConsumed - Int64(analysed.count)
        let samples = analysing.map { Array(analysed.prefix($0)) } ?? analysed
        // Decoded from the start of the stretch it continues, when it continues one.
        let all = decodeFrom.map { $0 < start ? history(from: $0) : analysed } ?? analysed
        let decodedFirst = samplesConsumed - Int64(all.count)
        var d: BurstDecoder
        var sameSender = false
        if let last = detections.last, let demod = sameAsBefore(last, samples) {
            detections.append(Detection(startSample: first, signature: last.signature, format: last.format))
            d = .fsk(demod)
            sameSender = true
        } else if let measured = Self.signature(of: samples, sampleRate: sampleRate) ?? gatheredSignature,
            let choice = measuredChoice(measured, samples, canWait: canWait)
        {
            guard case .chosen(let chosen, let format, let demod) = choice else {
                // Kept for the next try: more blocks can hold more than the analysis copes
                // with (a slow 7N1 burst measured on 12 blocks was not on 24).
                gatheredSignature = measured
                return .waiting
            }
            var signature = chosen
            signature.toneBits = measured.toneBits
            let detection = Detection(startSample: first, signature: signature, format: format)
            detections.append(detection)
            d = .fsk(demod)
            // No convention names mark for these tones: the burst itself must (see
            // ``BurstReadings``).
            if detection.markEvidence == .undecided, let other = swappedReading(signature, format, samples) {
                d = .twoReadings(.polarity, demod, other)
            }
        } else if let choice = profileTrial(samples, canWait: canWait) {
            guard case .chosen(let signature, let format, let demod) = choice else { return .waiting }
            detections.append(Detection(startSample: first, signature: signature, format: format))
            d = .fsk(demod)
        } else if weakBurst || quiet < 0, let choice = weakTrial(samples, canWait: canWait) {
            guard case .chosen(let signature, let format, let demod) = choice else { return .waiting }
            detections.append(Detection(startSample: first, signature: signature, format: format))
            d = .fsk(demod)
        } else if let trial = hiJackTrial(samples, first: first) {
            detections.append(trial.detection)
            d = .hijack(trial.decoder)
        } else {
            return .none
        }
        if !sameSender, let demod = d.fskReading, let trial = manchesterInstead(of: demod, samples, first: first) {
            detections[detections.count - 1] = trial.detection
            d = .hijack(trial.decoder)
        }
        if !sameSender, let demod = d.fskReading,
            let other = conventionDoubted(detections[detections.count - 1], samples)
        {
            // The convention's space leads the burst: the burst decides (see BurstOpening).
            d = .twoReadings(.polarity, demod, other, tieGoesToFirst: true)
            detections[detections.count - 1].markEvidence = .undecided
        }
        if !sameSender, d.fskReading != nil, let two = topBitReadings(detections[detections.count - 1], samples) {
            d = .twoReadings(.topBit, two.seven, two.eight)
            detections[detections.count - 1].formatEvidence = .undecided
        }
        if let from = decodeFrom, from < decodedFirst { reportLost(from: from, to: decodedFirst, into: &events) }
        all.withUnsafeBufferPointer { decode(&d, $0, offset: decodedFirst, into: &events) }
        decoder = d
        decodeFrom = nil
        state = .decoding(offset: decodedFirst, quietBlocks: 0)
        return .started
    }

    /// The format of a burst whose analysis measured `measured` (see
    /// ``chooseFormat(_:_:canWait:bothWays:)``), mark named by the tone pair's convention
    /// when it has one.
    ///
    /// A known tone pair also names its bit rates: when the measured rate is none of them,
    /// the pair's own rates are tried first, and one whose reading proves a format wins;
    /// one that reads clean but too few characters to prove one yet waits for more of the
    /// burst (or, when it cannot, is scored at that rate). Why: rates measured from runs between tone changes can err by whole factors (a
    /// 16 MHz Arduino at "126" measured at 1936 baud, "315" at 649; Bell 103 at 96 kHz at
    /// 214), while a modem's tones are measured well.
    func measuredChoice(_ measured: ModemSignature, _ samples: [Float], canWait: Bool) -> FormatChoice? {
        guard let oriented = ToneConvention.oriented(measured) else {
            return chooseFormat(measured, samples, canWait: canWait, bothWays: true)
        }
        let rates = ToneConvention.rates(oriented.mark, oriented.space)
        if !rates.contains(where: { abs(oriented.baud / $0 - 1) <= ToneConvention.rateTolerance }) {
            for rate in rates {
                var s = ModemSignature(mark: oriented.mark, space: oriented.space, baud: rate)
                s.toneBits = oriented.toneBits
                switch provenFormat(s, samples) {
                case .proven(let format, let demod): return .chosen(s, format, demod)
                // Clean at the modem's own rate but too few yet: that rate, once proven.
                case .tooFew where mayWait(canWait, samples.count, baud: rate): return .waitForMore
                case .tooFew: return chooseFormat(s, samples, canWait: false, bothWays: false)
                case .unproven: continue
                }
            }
        }
        return chooseFormat(oriented, samples, canWait: canWait, bothWays: false)
    }

    /// What ``startBurst(from:canWait:into:)`` did.
    enum BurstStart {
        /// A modem: its decoder runs from the burst's first sample.
        case started
        /// A modem whose clean characters are too few yet to prove its format.
        case waiting
        /// Nothing it knows.
        case none
    }

    /// The common case made cheap: a burst from the same sender as the last one. When the
    /// last burst's demodulator decodes the burst's first blocks with no error, and either
    /// reads ``sameSenderCharacters`` characters or the bit timing measured around the
    /// last burst's tones gives its bit rate (within 5 %) and its tones (within 5 %), that
    /// demodulator is used again, without the spectrum and the format trials. A burst
    /// opened by its tones (``weakBurst``) needs half the characters and at most one error
    /// in four. Anything else (another modem, noise) returns nil.
    func sameAsBefore(_ last: Detection, _ samples: [Float]) -> FSKDemodulator? {
        guard !last.isHiJack, last.markEvidence != .unproven, last.formatEvidence != .unproven else { return nil }
        var events: [ModemEvent] = []
        guard let fresh = trial(last.profile, last.format, samples, into: &events) else { return nil }
        // A burst opened by its tones, under the noise, loses characters the others keep:
        // at -2 dB SNR an 8-byte burst often reads 7, or 5 and one error, and its bit timing
        // cannot be measured. Half the characters, at most one error in four, from the
        // last sender's own demodulator (whose burst confirmation still holds) will do.
        let bytes = events.reduce(0) { $0 + ($1.kind == .byte ? 1 : 0) }
        if weakBurst && bytes >= Self.sameSenderCharacters / 2 && 4 * (events.count - bytes) <= bytes { return fresh }
        guard !events.isEmpty, events.allSatisfy({ $0.kind == .byte }) else { return nil }
        // Many clean characters in the last burst's settings leave no doubt: a sender at
        // another rate or on other tones breaks a frame within a few. The bit timing (the
        // phase of every sample, ten times the cost of the trial) is for a burst of a few.
        if events.count >= Self.sameSenderCharacters { return fresh }
        let s = last.signature
        func near(_ a: Double, _ b: Double) -> Bool { ModemProfile.isWithinTolerance(a, of: b) }
        let timing = BitTimingEstimator(
            sampleRate: sampleRate, center: (s.mark + s.space) / 2, difference: abs(s.mark - s.space))
        guard let e = timing.estimate(blocks: [samples[...]], rates: (s.baud / 3.15)...(s.baud / 0.95)),
            near(e.baud, s.baud),
            near(e.upper, max(s.mark, s.space)), near(e.lower, min(s.mark, s.space))
        else { return nil }
        return fresh
    }

    /// Clean characters in the last burst's settings that make a burst the same sender's
    /// without measuring its bit timing.
    static let sameSenderCharacters = 8

    /// A burst too short to measure (a character or two, as from a sketch that writes a
    /// byte now and then): the slowest built-in profile that decodes it in 8N1 (or the
    /// format its line bits prove) with no error, a character other than clicks
    /// (``FrameFormat/readsAsClicks(_:)``) and a mean Eb/N0 of ``shortBurstEbN0`` or more
    /// (``provenBurstEbN0`` for a reading that ``proves(_:_:_:)`` its profile), with a fresh
    /// demodulator; only profiles whose tones hold ``shortBurstToneShare`` of the burst's
    /// sound are tried.
    ///
    /// The slowest, because a faster profile with the same tones can read a slower
    /// sender's bits as pairs of its own and still frame characters, while a slower one
    /// cannot read a faster sender cleanly (two tones in one bit).
    ///
    /// Its format is proven from the line bits when the characters are enough
    /// (``provenFormat(_:_:)``); while they are clean but too few and `canWait`, the burst
    /// waits for more blocks (``FormatChoice/waitForMore``), so a slow 8E1 sender whose
    /// first characters happen to read as 8N1 is not pinned to 8N1.
    func profileTrial(_ samples: [Float], canWait: Bool) -> FormatChoice? {
        // Speech and music pass single characters now and then; what they cannot do is
        // put nearly all their sound on two tones.
        let b = SignalSurvey.blockLength
        var padded = samples
        padded.append(contentsOf: repeatElement(0, count: (b - samples.count % b) % b))
        let blocks = stride(from: 0, to: padded.count, by: b).map { padded[$0..<($0 + b)] }
        let spectrum = BandSpectrum(blocks: blocks, sampleRate: sampleRate)
        var events: [ModemEvent] = []
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
            let signature = ModemSignature(mark: profile.mark, space: profile.space, baud: profile.baud)
            guard var chosen = trial(profile, .eightN1, samples, into: &events) else { continue }
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
            guard !events.isEmpty else { continue }
            guard !format.readsAsClicks(events) else {
                onesOnly.append(profile)
                continue
            }
            guard whole.allSatisfy({ $0.kind == .byte }) else { continue }
            let ebN0 = events.reduce(0.0) { $0 + ($1.fsk?.ebN0 ?? 0) } / Double(events.count)
            guard ebN0 >= Self.shortBurstEbN0 || (ebN0 >= Self.provenBurstEbN0 && Self.proves(proof, events, profile))
            else { continue }
            // Clean so far, but too few characters to tell 8N1 from a format with parity.
            if case .tooFew = proof, mayWait(canWait, samples.count, baud: profile.baud) { return .waitForMore }
            return .chosen(signature, format, chosen)
        }
        return nil
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

    /// What a HiJack trial found: the detection, a fresh decoder, and the bad frames.
    struct HiJackTrial {
        var detection: Detection
        var decoder: HiJackDecoder
        var errors: Int
    }

    /// A HiJack reading of a burst an FSK profile was chosen for, when it is the better
    /// one: Manchester near 1200 baud carries Bell 202's two tones (an infinity board at
    /// 1170 baud measures as mark 1169 Hz, space 2223 Hz), and an FSK reading of it has
    /// more damaged characters than the HiJack one has bad frames (one of which is often
    /// the frame the analysis cuts off). A clean FSK reading is kept: a slow FSK burst whose
    /// tones are an octave apart also reads as Manchester.
    func manchesterInstead(of demod: FSKDemodulator, _ samples: [Float], first: Int64) -> HiJackTrial? {
        guard let trial = hiJackTrial(samples, first: first) else { return nil }
        var fsk = demod
        var events: [ModemEvent] = []
        samples.withUnsafeBufferPointer { fsk.process($0, into: &events) }
        fsk.flush(into: &events)
        return events.count { $0.kind != .byte } > trial.errors ? trial : nil
    }

    /// HiJack's Manchester code, either polarity, in any of its generations: a fresh decoder
    /// for the burst and what was found, when a trial decode of `samples` proves one.
    ///
    /// Frames of start, data and parity bits (Gen 1, infinity) need at least
    /// ``hiJackFrames`` good frames and at most one bad frame in four. They are infinity's
    /// when they carry an infinity packet (0xDD, length, checksum) or run at a rate Gen 1's
    /// crystal never sends; Gen 1's otherwise. A lab11 burst needs one packet its checksum
    /// proves; a board of the other generations never pauses, so never sends one.
    func hiJackTrial(_ samples: [Float], first: Int64) -> HiJackTrial? {
        func trial(_ generation: HiJackGeneration) -> (frames: [ModemEvent], errors: Int, fresh: HiJackDecoder)? {
            guard let fresh = try? HiJackDecoder(sampleRate: sampleRate, generation: generation) else { return nil }
            var decoder = fresh
            var events: [ModemEvent] = []
            samples.withUnsafeBufferPointer { decoder.process($0, into: &events) }
            decoder.flush(into: &events)
            let frames = events.filter { $0.kind == .byte }
            return (frames, events.count - frames.count, fresh)
        }
        func found(_ generation: HiJackGeneration, _ t: (frames: [ModemEvent], errors: Int, fresh: HiJackDecoder))
            -> HiJackTrial?
        {
            guard let last = t.frames.last?.hijack else { return nil }
            let detection = Detection(
                startSample: first, hiJackBaud: last.baud, inverted: last.inverted, generation: generation)
            return HiJackTrial(detection: detection, decoder: t.fresh, errors: t.errors)
        }
        func framesHold(_ t: (frames: [ModemEvent], errors: Int, fresh: HiJackDecoder)) -> Bool {
            t.frames.count >= Self.hiJackFrames && 4 * t.errors <= t.frames.count
        }
        if let gen1 = trial(.gen1), framesHold(gen1) {
            var parser = HiJackInfinityFrameParser()
            let packets = parser.parse(gen1.frames.map(\.value))
            if packets.isEmpty { return found(.gen1, gen1) }
            if let infinity = trial(.infinity) { return found(.infinity, infinity) }
        }
        if let infinity = trial(.infinity), framesHold(infinity) { return found(.infinity, infinity) }
        if let lab11 = trial(.lab11), !lab11.frames.isEmpty { return found(.lab11, lab11) }
        return nil
    }

    /// Good frames a HiJack burst must show in its analysis blocks.
    static let hiJackFrames = 4

    /// The modem the blocks of `samples` sound like, if any.
    static func signature(of samples: [Float], sampleRate: Double) -> ModemSignature? {
        let b = SignalSurvey.blockLength
        var blocks: [ArraySlice<Float>] = []
        var loudest = 0.0
        var i = 0
        while i + b <= samples.count {
            let block = samples[i..<(i + b)]
            var e = 0.0
            for x in block { e += Double(x) * Double(x) }
            loudest = max(loudest, e / Double(b))
            blocks.append(block)
            i += b
        }
        // Only the burst's own blocks: the one before its onset may hold mostly noise.
        blocks = blocks.filter { block in
            var e = 0.0
            for x in block { e += Double(x) * Double(x) }
            return e / Double(b) >= loudest / 4
        }
        guard !blocks.isEmpty else { return nil }
        guard
            case .modem(let s) = SignalSurvey.analyse(
                blocks, level: Decibels.power(loudest), sampleRate: sampleRate,
                contiguous: samples[...])
        else {
            return nil
        }
        return s
    }
}
