// Deciding a candidate character: bit decisions (coherent on a locked burst), the checks a
// real character passes (start, stop, level, squelch, tones), the bit clock's update and
// the phase trackers' learning.

extension FSKDemodulator {
    /// Feeds an accepted character's bits to the two phase trackers.
    mutating func learnPhases(_ m: UnsafeBufferPointer<BitMeasure>, continuing: Bool) {
        // Scratch preallocated in storage (mark bits in the first half, space bits in the
        // second): one pass over the bits, no closures and no allocation per character.
        let n = frameBits
        let z = storage.phaseCorrelations
        let c = storage.phaseCenters
        var marks = 0
        var spaces = 0
        for k in 0..<m.count {
            let bit = m[k]
            if bit.isMark {
                z[marks] = (bit.window.mr, bit.window.mi)
                c[marks] = bit.center
                marks &+= 1
            } else {
                z[n &+ spaces] = (bit.window.sr, bit.window.si)
                c[n &+ spaces] = bit.center
                spaces &+= 1
            }
        }
        // The drift starts at zero, not at the measured tone's: seeding it would plant that
        // estimate's bias.
        markTracker.update(
            z: UnsafeBufferPointer(start: z, count: marks), centers: UnsafeBufferPointer(start: c, count: marks),
            bitsPerSegment: bitsPerSegment, continuing: continuing)
        spaceTracker.update(
            z: UnsafeBufferPointer(start: z + n, count: spaces),
            centers: UnsafeBufferPointer(start: c + n, count: spaces),
            bitsPerSegment: bitsPerSegment, continuing: continuing)
    }

    /// What a search decided about one candidate character.
    enum Outcome {
        /// Reported as a byte or parity error; the next character may start at `next`.
        case accepted(next: Double)
        /// Reported as a framing error at start `a`.
        case framingError(Double)
        /// Not a character (noise, silence, a transient); best alignment was `a`.
        case rejected(Double)
        /// The clock's candidates did not settle it and the wide search needs more segments.
        case needMore
        /// A first character's best start is the search range's last one, where the scores
        /// may still be rising: the range moves on (``FSKTuning/triggerRangeShift``).
        case later
    }

    mutating func decide(
        start a: Double, step: Double, grid: Double?,
        _ events: inout [ModemEvent]
    ) -> Outcome {
        let inBurst = grid != nil
        let n = frameBits
        // Pass 1: each bit's correlations, decided coherently when the burst's tone phases
        // are known and by energy otherwise.
        // Scratch preallocated in storage: frameBits BitMeasures exceed the 1 KB that
        // withUnsafeTemporaryAllocation keeps on the stack, so it would malloc per character.
        let m = UnsafeMutableBufferPointer(start: storage.measures, count: n)
        do {
            var hi = roundToInt(a)
            for k in 0..<n {
                let lo = hi
                hi = roundToInt(a + Double(k &+ 1) * step)
                let w = windowSums(lo, hi)
                let g = 2 * w.inverseSamples
                m[k] = BitMeasure(
                    lo: lo, hi: hi, window: w, em: w.markEnergy * g, es: w.spaceEnergy * g,
                    center: Double(lo &+ hi) / 2, isMark: w.markEnergy > w.spaceEnergy)
            }
            let coherent = inBurst && markTracker.locked && spaceTracker.locked
            if coherent {
                var contradicted = false
                // Predictions at the first bit, then one rotation per bit (bits are evenly
                // spaced to within a rounded segment, far below the drift's resolution).
                var pm = markTracker.predicted(at: m[0].center, bitsPerSegment: bitsPerSegment)
                var ps = spaceTracker.predicted(at: m[0].center, bitsPerSegment: bitsPerSegment)
                let bitLength = n > 1 ? (m[n - 1].center - m[0].center) / Double(n - 1) : segmentsPerBit
                let rm = markTracker.rotation(over: bitLength, bitsPerSegment: bitsPerSegment)
                let rs = spaceTracker.rotation(over: bitLength, bitsPerSegment: bitsPerSegment)
                for k in 0..<n {
                    defer {
                        pm = (pm.re * rm.re - pm.im * rm.im, pm.re * rm.im + pm.im * rm.re)
                        ps = (ps.re * rs.re - ps.im * rs.im, ps.re * rs.im + ps.im * rs.re)
                    }
                    let w = m[k].window
                    let inPhase = w.mr * pm.re + w.mi * pm.im > w.sr * ps.re + w.si * ps.im
                    // The phase only decides what the energies leave in doubt; an energy
                    // verdict this clear that disagrees proves the phase reference wrong.
                    // Clarity |em - es| / (em + es) above 0.6, without the division.
                    if abs(m[k].em - m[k].es) > FSKTuning.coherentOverrideClarity * (m[k].em + m[k].es) {
                        contradicted = contradicted || inPhase != m[k].isMark
                    } else {
                        m[k].isMark = inPhase
                    }
                }
                if contradicted {
                    // Judged on provisional data, leave the trackers alone: the final data
                    // decides.
                    if tentative { return .needMore }
                    markTracker.reset()
                    spaceTracker.reset()
                    for k in 0..<n { m[k].isMark = m[k].window.markEnergy > m[k].window.spaceEnergy }
                }
            }
        }
        let outcome = decideBits(start: a, step: step, grid: grid, measures: UnsafeBufferPointer(m), &events)
        if tentative, case .rejected = outcome { return .needMore }
        switch outcome {
        case .accepted, .framingError: recordFrame(UnsafeBufferPointer(m), first: !inBurst)
        default: break
        }
        return outcome
    }

    /// True when a character 10 dB or more off a confirmed burst's level (``FSKTuning/levelLow``)
    /// is as clear as one that opens a burst alone (``BurstConfirmation/clearEbN0Ratio``):
    /// off its level, the burst's clock does not vouch for it. Why: a square wave cut off
    /// into a noiseless DC offset framed a character 21 dB under its burst, 7 bits after the
    /// last one, at Eb/N0 10.3 dB, and it was printed with exit status 0. A sender's own
    /// step of 20 dB inside a burst (``FSKTuning/tailLevel``) stays clear, and decodes.
    ///
    /// Its bits must also keep FSK's constant envelope (no bit under
    /// ``FSKTuning/weakestBitFraction`` of their mean, as for a burst's first character):
    /// where a DC offset stops with its square wave, the step read as a start bit over
    /// silent data bits, noiseless and so "clear", and a clean burst was reported with a
    /// damaged character (exit status 1; with no options the wrong tone order then tied).
    func clearOffLevel(_ ebN0Ratio: Double, _ s: CharacterSums) -> Bool {
        ebN0Ratio >= confirmation.clearEbN0Ratio
            && s.weakest >= FSKTuning.weakestBitFraction * s.winning / Double(frameBits)
    }

    /// One bit of a candidate character.
    struct BitMeasure {
        var lo: Int, hi: Int
        var window: Window
        var em: Double, es: Double
        var center: Double
        var isMark: Bool
    }

    /// Decides a candidate character from its bits `m` (start at `a`, bits `step` apart,
    /// `grid` the burst's expected start when inside one): its checks, its event, and what
    /// accepting it teaches the clock and the phase trackers.
    mutating func decideBits(
        start a: Double, step: Double, grid: Double?, measures m: UnsafeBufferPointer<BitMeasure>,
        _ events: inout [ModemEvent]
    ) -> Outcome {
        let inBurst = grid != nil
        // Until its burst is confirmed, every character's tones are measured: they are what
        // tells a modem from speech.
        let measureTones = !inBurst || !confirmation.confirmed || clock.characters % FSKTuning.toneMeasureInterval == 0
        // Only a character of a burst not yet confirmed needs vetting (BurstConfirmation).
        let vetting: Bool
        if confirmation.confirmed, case .following = mode { vetting = false } else { vetting = true }
        var s = characterSums(m, measureTones: measureTones, vetting: vetting)
        guard startIsTrue(s, at: a, step: step, inBurst: inBurst, firstBit: m[0]) else { return .rejected(a) }
        // The burst's bit clock only vouches for a character at the burst's level: the tail
        // of a recording 60 dB down is not the same sender.
        let power = s.signal / s.samples
        let atLevel = clock.isAtLevel(power)
        // 30 dB or more under a confirmed burst's level is not its sender's: a tone cut off
        // into silence (phase-reset Bell 103, -57 dBFS after a -7 dBFS burst) framed a
        // character there, over a DC offset a clean 0xB7 printed with exit status 0. The
        // burst ends; anything real there is found again as a burst of its own, and vetted.
        if !vetting && clock.isFarBelowLevel(power) { return .rejected(a) }
        let grid = atLevel ? grid : nil
        let onGrid = grid != nil
        // A character at the level of a burst that ended moments ago (a lost clock, a
        // restarted sender) also gets the in-burst squelch.
        let resuming = atLevel && a - clock.lastEnd < FSKTuning.resumeCharacters * Double(frameBits) * segmentsPerBit
        // Correlated tones (Bell 202, Bell 103) read a steady tone as |mark - space| = (1 -
        // leakage) of its energy: scaled back up, so the noise and Eb/N0 estimates are
        // unbiased for them as for orthogonal tones (a clean Bell 103 character otherwise
        // reads 20 % of its own energy as noise).
        s.signal /= 1 - min(toneLeakage, 0.5)
        let noise = max(s.total - s.signal, s.total * FSKTuning.noiseFloorFraction)
        let ebN0Ratio = s.signal * (s.samples / Double(frameBits)) / (2 * noise)
        guard ebN0Ratio >= (onGrid || resuming ? squelchRatioInBurst : squelchRatio) else {
            return .rejected(a)
        }
        if !vetting && !atLevel && !clearOffLevel(ebN0Ratio, s) { return .rejected(a) }
        let markHz = measuredTone(configuration.profile.mark, s.markPhase, s.markLag, s.markHalves)
        let spaceHz = measuredTone(configuration.profile.space, s.spacePhase, s.spaceLag, s.spaceHalves)
        // Judged only where it is read (a burst's opening, a burst not yet confirmed): the
        // confirmed burst's characters, the common case, skip it.
        let plausible =
            (onGrid && !vetting)
            || (tonesPlausible(markHz, configuration.profile.mark)
                && tonesPlausible(spaceHz, configuration.profile.space))
        // A character that opens a burst must also be at the right frequencies: coloured
        // noise can fool the energy test, but its measured tones wander by hundreds of hertz.
        // Inside a burst the bit clock already vouches for it, and at low SNR the estimate
        // itself gets noisy.
        if !onGrid && !plausible { return .rejected(a) }
        let (value, kind) = valueAndKind(s)
        // A framing error is reported only on final data; a tentative look may be early.
        if tentative && kind == .framingError { return .needMore }
        let b = Double(segmentLength)
        let event = ModemEvent(
            kind: kind, value: value,
            startSample: Int64((a * b).rounded()),
            endSample: Int64(((a + Double(frameBits) * step) * b).rounded()),
            decidedAt: Int64(rawCount * segmentLength),
            metrics: .fsk(
                FSKCharacterMetrics(
                    signalPower: s.signal / s.samples, noisePower: (s.total - min(s.signal, s.total)) / s.samples,
                    ebN0Ratio: ebN0Ratio,
                    markFrequency: markHz, spaceFrequency: spaceHz)))
        if !vetting {
            // A confirmed burst's characters go straight out (the common case, kept cheap).
            events.append(event)
        } else {
            openBurst(resuming, at: a, step: step, power: power, s.signal / s.samples)
            let structure = CharacterStructure(
                frameBits: frameBits, winning: s.winning, losing: max(s.losing - toneLeakage * s.winning, 0),
                ebN0Ratio: ebN0Ratio, ownCrossTalk: cleanCrossTalk,
                mark: (s.markWinning, s.markSquares, s.marksWon), spaceSquares: s.spaceSquares)
            confirmation.admit(
                event, plausible: plausible, structure: structure, now: Int64(rawCount * segmentLength), into: &events)
        }
        if kind == .framingError { return .framingError(a) }
        return accept(m, at: a, step: step, grid: grid, power: power)
    }

    /// An accepted character teaches the phase trackers its bits and the bit clock its
    /// timing; returns where the next character is expected.
    @inline(__always)
    mutating func accept(
        _ m: UnsafeBufferPointer<BitMeasure>, at a: Double, step: Double, grid: Double?, power: Double
    ) -> Outcome {
        learnPhases(m, continuing: grid != nil)
        clock.power = power
        clock.lastEnd = a + Double(frameBits) * step
        if let g = grid {
            let next = clock.track(
                error: a - g, expected: g, span: Double(frameBits) * segmentsPerBit,
                tolerance: configuration.baudTolerance)
            return .accepted(next: next)
        }
        // A burst's clock starts at the nominal rate unless its first character clearly says
        // otherwise: one character's best-fitting rate is a coarse, noisy estimate, and the
        // loop above refines it within a few characters.
        clock.start(scale: step / segmentsPerBit)
        return .accepted(next: a + Double(frameBits) * segmentsPerBit * clock.scale)
    }

    /// True when a measured tone (NaN when unmeasured) is near nominal: within
    /// ``FSKTuning/toneTolerance`` of it plus ``FSKTuning/toneSlackHz``, plus
    /// ``FSKTuning/toneCoarseness`` over the samples per bit (half-bit windows of 4-5
    /// samples at 2450 baud, 22.05 kHz measure coarsely), plus the high-pass's bias on a tone
    /// with few cycles per bit (``FSKTuning/toneHighPassBias``).
    func tonesPlausible(_ measured: Double, _ nominal: Double) -> Bool {
        let baud = configuration.profile.baud
        let samplesPerBit = configuration.sampleRate / baud
        return measured.isNaN
            || abs(measured - nominal) <= FSKTuning.toneTolerance * nominal + FSKTuning.toneSlackHz
                + FSKTuning.toneCoarseness / samplesPerBit + FSKTuning.toneHighPassBias * baud * baud / nominal
    }
}
