// What one pass over a candidate character's bits adds up, for the checks that decide it
// (FSKDemodulator+Decisions): bits, energies, the squelch's signal and noise, the tones'
// phase advance, and what the burst confirmation vets.

extension FSKDemodulator {
    /// The sums of one candidate character's bits.
    struct CharacterSums {
        /// The bits, bit k at place k (start bit first).
        var bits: UInt32 = 0
        /// Sum of |mark - space| energy: the squelch's signal.
        var signal = 0.0
        /// Sum of the detrended window energies, and the samples they cover.
        var total = 0.0
        var samples = 0.0
        var startIsSpace = false
        var stopsAreMark = true
        /// Phase advance between bit halves on the winning tone, summed per tone, with the
        /// lags (samples) and the number of bits measured.
        var markPhase = (re: 0.0, im: 0.0)
        var spacePhase = (re: 0.0, im: 0.0)
        var markLag = 0.0
        var spaceLag = 0.0
        var markHalves = 0
        var spaceHalves = 0
        /// The start bit's winning energy per sample, and the weakest bit's.
        var startEnergy = 0.0
        var weakest = Double.infinity
        /// Winning and losing energy per sample, summed over the bits.
        var winning = 0.0
        var losing = 0.0
        // The winning energy's sum and sum of squares over mark bits and over space bits: an
        // off-frequency sender's two tones correlate at different levels, each steady.
        // Only a character of a burst not yet confirmed needs them (BurstConfirmation).
        var markWinning = 0.0
        var markSquares = 0.0
        var marksWon = 0.0
        var spaceSquares = 0.0
    }

    /// Adds up the bits `m` of a candidate character. `measureTones`: measure the phase
    /// advance between bit halves (every burst start; inside a burst now and then, for its
    /// report). `vetting`: add what the burst confirmation needs.
    @inline(__always)
    func characterSums(_ m: UnsafeBufferPointer<BitMeasure>, measureTones: Bool, vetting: Bool) -> CharacterSums {
        var s = CharacterSums()
        for k in 0..<frameBits {
            let (lo, hi, w) = (m[k].lo, m[k].hi, m[k].window)
            let em = m[k].em
            let es = m[k].es
            let isMark = m[k].isMark
            if isMark { s.bits |= 1 &<< UInt32(truncatingIfNeeded: k) }  // k < frameBits <= 13
            if k == 0 { s.startIsSpace = !isMark }
            if k >= frameBits &- stopBits && !isMark { s.stopsAreMark = false }
            s.signal += abs(em - es)
            let e = max(em, es) * w.inverseSamples
            s.winning += e
            if vetting {
                s.losing += min(em, es) * w.inverseSamples
                if isMark {
                    s.markWinning += e
                    s.markSquares += e * e
                    s.marksWon += 1
                } else {
                    s.spaceSquares += e * e
                }
            }
            s.weakest = min(s.weakest, e)
            if k == 0 { s.startEnergy = e }
            s.total += w.detrendedEnergy
            s.samples += w.samples
            let mid = (lo &+ hi) / 2
            if measureTones && mid > lo && hi > mid { addPhaseAdvance(lo, mid, hi, isMark: isMark, into: &s) }
        }
        return s
    }

    /// The phase advance on the winning tone between the halves [lo, mid) and [mid, hi) of
    /// one bit.
    @inline(__always)
    func addPhaseAdvance(_ lo: Int, _ mid: Int, _ hi: Int, isMark: Bool, into s: inout CharacterSums) {
        let h1 = windowSums(lo, mid)
        let h2 = windowSums(mid, hi)
        let lag = Double((hi &- lo) &* segmentLength) / 2
        if isMark {
            s.markPhase.re += h2.mr * h1.mr + h2.mi * h1.mi
            s.markPhase.im += h2.mi * h1.mr - h2.mr * h1.mi
            s.markLag += lag
            s.markHalves += 1
        } else {
            s.spacePhase.re += h2.sr * h1.sr + h2.si * h1.si
            s.spacePhase.im += h2.si * h1.sr - h2.sr * h1.si
            s.spaceLag += lag
            s.spaceHalves += 1
        }
    }

    /// True when the character's start bit is a real one: the character is not silence, the
    /// start bit is space and at the character's level, and (opening a burst) it does not
    /// follow a space at that level and stands clear of the tones' leakage.
    @inline(__always)
    func startIsTrue(
        _ s: CharacterSums, at a: Double, step: Double, inBurst: Bool, firstBit: BitMeasure
    ) -> Bool {
        // FSK has a constant envelope: a "start bit" much weaker than the rest of the
        // character is an onset transient or the tail of something else, not a start bit.
        let meanEnergy = s.winning / Double(frameBits)
        // A true start bit follows a stop bit, idle mark or silence, never a space at the
        // character's level; a start found on a data bit of a character already under way
        // fails this half the time, and its stop-bit test the other half.
        var followsSpace = false
        var followsSilence = false
        if !inBurst {
            let lo = roundToInt(a - step)
            let hi = roundToInt(a)
            if hi > lo {
                let w = windowSums(lo, hi)
                let scale = 2 / (w.samples * w.samples)
                followsSpace =
                    w.spaceEnergy > w.markEnergy
                    && w.spaceEnergy * scale > FSKTuning.precedingSpaceFraction * meanEnergy
                // Before the input's first sample is no silence heard, only the ring's zeros.
                followsSilence =
                    lo >= 0
                    && (w.markEnergy + w.spaceEnergy) * scale < FSKTuning.precedingSilenceFraction * meanEnergy
            }
        }
        // Correlated tones make a window that straddles a burst's onset ambiguous (two
        // thirds of a bit of Bell 103's mark reads nearly as much in the space filter): a
        // burst's first start bit must be space by more than twice the tones' leakage. One
        // right after silence opens the burst at its onset, where a step (a DC offset that
        // starts with the tones) reads weakly in both probes: clear of noise, it must be a
        // tone at the character's level (``FSKTuning/onsetStartDominance``,
        // ``FSKTuning/onsetStartEnergyFraction``).
        let clearStart =
            inBurst
            || (firstBit.em <= (1 - 2 * toneLeakage) * firstBit.es
                && (!followsSilence
                    || (firstBit.es >= FSKTuning.onsetStartDominance * firstBit.em
                        && s.startEnergy >= FSKTuning.onsetStartEnergyFraction * meanEnergy)))
        guard s.total > s.samples * FSKTuning.silenceFloor, s.startIsSpace, !followsSpace, clearStart else {
            return false
        }
        return inBurst
            ? s.startEnergy >= FSKTuning.inBurstStartEnergyFraction * meanEnergy
            : (s.startEnergy >= FSKTuning.startEnergyFraction * meanEnergy
                && s.weakest >= FSKTuning.weakestBitFraction * meanEnergy)
    }

    /// A tone measured from its phase advance: `nominal` plus the advance's angle over its
    /// mean lag (NaN when no bit of that tone was measured).
    @inline(__always)
    func measuredTone(_ nominal: Double, _ phase: (re: Double, im: Double), _ lag: Double, _ count: Int) -> Double {
        guard lag > 0, count > 0 else { return .nan }
        return nominal + sampleRate * arcTangent2(phase.im, phase.re) / (2 * Double.pi * (lag / Double(count)))
    }

    /// The character's value and kind (byte, framing or parity error) from its bits.
    @inline(__always)
    func valueAndKind(_ s: CharacterSums) -> (value: UInt8, kind: ModemEvent.Kind) {
        let format = configuration.format
        let value = UInt8(truncatingIfNeeded: (s.bits >> 1) & UInt32(format.valueMask))
        if !s.stopsAreMark { return (value, .framingError) }
        if format.parity != .none {
            let parityBit = (s.bits >> UInt32(1 + format.dataBits)) & 1 == 1
            if parityBit != format.parityBit(for: value) { return (value, .parityError) }
        }
        return (value, .byte)
    }
}
