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
        return outcome
    }

    /// One bit of a candidate character.
    struct BitMeasure {
        var lo: Int, hi: Int
        var window: Window
        var em: Double, es: Double
        var center: Double
        var isMark: Bool
    }

    mutating func decideBits(
        start a: Double, step: Double, grid: Double?, measures m: UnsafeBufferPointer<BitMeasure>,
        _ events: inout [ModemEvent]
    ) -> Outcome {
        let inBurst = grid != nil
        // Until its burst is confirmed, every character's tones are measured: they are what
        // tells a modem from speech.
        let measureTones = !inBurst || !confirmation.confirmed || clock.characters % FSKTuning.toneMeasureInterval == 0
        var bits: UInt32 = 0
        var signal = 0.0
        var total = 0.0
        var samples = 0.0
        var startIsSpace = false
        var stopsAreMark = true
        var markPhase = (re: 0.0, im: 0.0)
        var spacePhase = (re: 0.0, im: 0.0)
        var markLag = 0.0
        var spaceLag = 0.0
        var markHalves = 0
        var spaceHalves = 0
        var startEnergy = 0.0
        var weakest = Double.infinity
        var winning = 0.0
        var losing = 0.0
        // The winning energy's sum and sum of squares over mark bits and over space bits: an
        // off-frequency sender's two tones correlate at different levels, each steady.
        var markWinning = 0.0
        var markSquares = 0.0
        var marksWon = 0.0
        var spaceSquares = 0.0
        // Only a character of a burst not yet confirmed needs them (BurstConfirmation).
        let vetting: Bool
        if confirmation.confirmed, case .following = mode { vetting = false } else { vetting = true }
        for k in 0..<frameBits {
            let (lo, hi, w) = (m[k].lo, m[k].hi, m[k].window)
            let em = m[k].em
            let es = m[k].es
            let isMark = m[k].isMark
            if isMark { bits |= 1 &<< UInt32(truncatingIfNeeded: k) }  // k < frameBits <= 13
            if k == 0 { startIsSpace = !isMark }
            if k >= frameBits &- stopBits && !isMark { stopsAreMark = false }
            signal += abs(em - es)
            let e = max(em, es) * w.inverseSamples
            winning += e
            if vetting {
                losing += min(em, es) * w.inverseSamples
                if isMark {
                    markWinning += e
                    markSquares += e * e
                    marksWon += 1
                } else {
                    spaceSquares += e * e
                }
            }
            weakest = min(weakest, e)
            if k == 0 { startEnergy = e }
            total += w.detrendedEnergy
            samples += w.samples
            // Phase advance between the two halves of the bit on the winning tone. Every
            // burst start is measured (the plausibility test needs it); inside a burst every
            // eighth character is enough for the burst's report.
            let mid = (lo &+ hi) / 2
            if measureTones && mid > lo && hi > mid {
                let h1 = windowSums(lo, mid)
                let h2 = windowSums(mid, hi)
                let lag = Double((hi &- lo) &* segmentLength) / 2
                if isMark {
                    markPhase.re += h2.mr * h1.mr + h2.mi * h1.mi
                    markPhase.im += h2.mi * h1.mr - h2.mr * h1.mi
                    markLag += lag
                    markHalves += 1
                } else {
                    spacePhase.re += h2.sr * h1.sr + h2.si * h1.si
                    spacePhase.im += h2.si * h1.sr - h2.sr * h1.si
                    spaceLag += lag
                    spaceHalves += 1
                }
            }
        }
        // FSK has a constant envelope: a "start bit" much weaker than the rest of the
        // character is an onset transient or the tail of something else, not a start bit.
        let meanEnergy = winning / Double(frameBits)
        // A true start bit follows a stop bit, idle mark or silence, never a space at the
        // character's level; a start found on a data bit of a character already under way
        // fails this half the time, and its stop-bit test the other half.
        var followsSpace = false
        if !inBurst {
            let lo = roundToInt(a - step)
            let hi = roundToInt(a)
            if hi > lo {
                let w = windowSums(lo, hi)
                followsSpace =
                    w.spaceEnergy > w.markEnergy
                    && w.spaceEnergy * 2 / (w.samples * w.samples) > FSKTuning.precedingSpaceFraction * meanEnergy
            }
        }
        // Correlated tones make a window that straddles a burst's onset ambiguous (two
        // thirds of a bit of Bell 103's mark reads nearly as much in the space filter): a
        // burst's first start bit must be space by more than twice the tones' leakage.
        let clearStart = inBurst || m[0].em <= (1 - 2 * toneLeakage) * m[0].es
        guard total > samples * FSKTuning.silenceFloor, startIsSpace, !followsSpace, clearStart,
            inBurst
                ? startEnergy >= FSKTuning.inBurstStartEnergyFraction * meanEnergy
                : (startEnergy >= FSKTuning.startEnergyFraction * meanEnergy
                    && weakest >= FSKTuning.weakestBitFraction * meanEnergy)
        else {
            return .rejected(a)
        }
        func measured(_ nominal: Double, _ phase: (re: Double, im: Double), _ lag: Double, _ count: Int) -> Double {
            guard lag > 0, count > 0 else { return .nan }
            return nominal + sampleRate * arcTangent2(phase.im, phase.re) / (2 * Double.pi * (lag / Double(count)))
        }
        // The burst's bit clock only vouches for a character at the burst's level: the tail
        // of a recording 60 dB down is not the same sender.
        let power = signal / samples
        let atLevel = clock.isAtLevel(power)
        let grid = atLevel ? grid : nil
        let onGrid = grid != nil
        // A character at the level of a burst that ended moments ago (a lost clock, a
        // restarted sender) also gets the in-burst squelch.
        let resuming = atLevel && a - clock.lastEnd < FSKTuning.resumeCharacters * Double(frameBits) * segmentsPerBit
        // Correlated tones (Bell 202, Bell 103) read a steady tone as |mark - space| = (1 -
        // leakage) of its energy: scaled back up, so the noise and Eb/N0 estimates are
        // unbiased for them as for orthogonal tones (a clean Bell 103 character otherwise
        // reads 20 % of its own energy as noise).
        signal /= 1 - min(toneLeakage, 0.5)
        let noise = max(total - signal, total * FSKTuning.noiseFloorFraction)
        let ebN0Ratio = signal * (samples / Double(frameBits)) / (2 * noise)
        guard ebN0Ratio >= (onGrid || resuming ? squelchRatioInBurst : squelchRatio) else {
            return .rejected(a)
        }
        let markHz = measured(configuration.profile.mark, markPhase, markLag, markHalves)
        let spaceHz = measured(configuration.profile.space, spacePhase, spaceLag, spaceHalves)
        // A character that opens a burst must also be at the right frequencies: coloured
        // noise can fool the energy test, but its measured tones wander by hundreds of hertz.
        // Inside a burst the bit clock already vouches for it, and at low SNR the estimate
        // itself gets noisy.
        if !onGrid
            && !(tonesPlausible(markHz, configuration.profile.mark)
                && tonesPlausible(spaceHz, configuration.profile.space))
        {
            return .rejected(a)
        }

        let format = configuration.format
        let value = UInt8(truncatingIfNeeded: (bits >> 1) & UInt32(format.valueMask))
        var kind = ModemEvent.Kind.byte
        if !stopsAreMark {
            kind = .framingError
        } else if format.parity != .none {
            let parityBit = (bits >> UInt32(1 + format.dataBits)) & 1 == 1
            if parityBit != format.parityBit(for: value) { kind = .parityError }
        }
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
                    signalPower: signal / samples, noisePower: (total - min(signal, total)) / samples,
                    ebN0Ratio: ebN0Ratio,
                    markFrequency: markHz, spaceFrequency: spaceHz)))
        if !vetting {
            // A confirmed burst's characters go straight out (the common case, kept cheap).
            events.append(event)
        } else {
            if case .following = mode {} else { confirmation.beginBurst(resuming: resuming) }
            let plausible =
                tonesPlausible(markHz, configuration.profile.mark)
                && tonesPlausible(spaceHz, configuration.profile.space)
            let structure = CharacterStructure(
                frameBits: frameBits, winning: winning, losing: max(losing - toneLeakage * winning, 0),
                ebN0Ratio: ebN0Ratio, ownCrossTalk: cleanCrossTalk,
                mark: (markWinning, markSquares, marksWon), spaceSquares: spaceSquares)
            confirmation.admit(
                event, plausible: plausible, structure: structure, now: Int64(rawCount * segmentLength), into: &events)
        }
        if kind == .framingError { return .framingError(a) }
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
