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
    ///
    /// A burst the convention's reading cannot frame may still open on the convention's
    /// space and read the other way round (``againstConvention(_:_:choose:)``).
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
        if let choice = chooseFormat(oriented, samples, canWait: canWait, bothWays: false) { return choice }
        return againstConvention(oriented, samples) { chooseFormat($0, samples, canWait: canWait, bothWays: false) }
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
