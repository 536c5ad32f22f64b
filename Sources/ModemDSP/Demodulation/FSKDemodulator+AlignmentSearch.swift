// Scoring alignments (start times and bit rates) of a candidate character, and choosing
// among them: the clock's own candidate, the wide search's best, or after a restarted
// clock the best start that follows mark.

extension FSKDemodulator {
    /// The alignment scorer over this demodulator's ring (see ``AlignmentScorer``).
    @inline(__always)
    var scorer: AlignmentScorer {
        AlignmentScorer(
            ring: storage.ring, ringMask: ringMask, inverseSamples: storage.inverseSamples,
            boundaries: storage.boundaries, frameBits: frameBits, stopBits: stopBits)
    }

    /// Mark energy minus space energy per sample, for a window's correlations `w`.
    @inline(__always)
    static func energyDifference(_ w: SIMD4<Double>, inverseSamples: Double) -> Double {
        let e = w * w
        return ((e[0] + e[1]) - (e[2] + e[3])) * inverseSamples
    }

    /// Adds one bit's energy difference to an alignment's score: the start bit must be
    /// space, stop bits mark, data bits count by how clearly they decide.
    @inline(__always)
    static func accumulate(_ d: Double, bit k: Int, of frameBits: Int, stopBits: Int, into score: inout Double) {
        if k == 0 {
            score -= d
        } else if k >= frameBits - stopBits {
            score += d
        } else {
            score += abs(d)
        }
    }

    /// Scores every start time in [lo, hi] (and bit rates around the nominal or tracked
    /// one), decodes the best, and reports what happened. With `grid`, alignments within
    /// a segment of it win unless the signal is clearly better elsewhere.
    ///
    /// `restarted`: the sender may have restarted its clock (idle bits, or a mark-leaning
    /// window where a start bit was due), so a clock candidate late inside a run of space
    /// bits gives way to the best start that follows mark (see ``refine``).
    ///
    /// Off the clock (`grid` nil), a best start that is `hi` itself decides nothing: the
    /// search returns ``Outcome/later`` while ``mayMoveRange``.
    mutating func search(
        lo: Double, hi: Double, grid: Double?, restarted: Bool = false, _ events: inout [ModemEvent]
    ) -> Outcome {
        let nominal = segmentsPerBit
        let center = grid == nil ? 1.0 : clock.scale
        // On the burst's clock, a character scoring near what the burst's level predicts
        // needs no wider search (the common case, and a 4x saving); the wide search remains
        // for slips, restarted clocks and weak characters.
        var gridBest = (a: 0.0, step: nominal * center, score: -Double.infinity)
        if let g = grid {
            scorer.setBoundaries(start: g, step: gridBest.step)
            // The three alignments and the next one outward must be in the ring.
            if storage.boundaries[frameBits] + 2 > ringEnd { return .needMore }
            var bestOffset = 0
            let around = scorer.scoresAround()
            if around.0 > gridBest.score {
                gridBest = (g - 1, gridBest.step, around.0)
                bestOffset = -1
            }
            if around.1 > gridBest.score {
                gridBest = (g, gridBest.step, around.1)
                bestOffset = 0
            }
            if around.2 > gridBest.score {
                gridBest = (g + 1, gridBest.step, around.2)
                bestOffset = 1
            }
            // Take the fast path only if the clock is not drifting off: when the best is at
            // an edge, the next position outward must not score higher.
            var central = true
            if bestOffset != 0 {
                central = scorer.score(offset: 2 * bestOffset) <= gridBest.score
            }
            let expected = Double(frameBits) * clock.power * nominal * Double(segmentLength) / 2
            // After a restart the clock's candidate may sit half a bit late on a run of
            // space bits, or early on idle line, and still score this well: it skips the
            // wide search only where the line turns from mark to space.
            if central && gridBest.score >= FSKTuning.gridFastPathFraction * expected
                && (!restarted || startsAtEdge(gridBest.a, step: gridBest.step))
            {
                return decide(start: gridBest.a, step: gridBest.step, grid: g, &events)
            }
            // Before the wide search's data is in, the clock's candidates were the only try.
            if tentative { return .needMore }
            for offset in [-3, -2, 2, 3] {
                let s = scorer.score(offset: offset)
                if s > gridBest.score { gridBest = (g + Double(offset), gridBest.step, s) }
            }
        }
        let best = coarseSearch(lo: lo, hi: hi, step: nominal * center, upTo: Int.max).best
        if grid == nil && best.a >= hi && mayMoveRange { return .later }
        return refine(best, gridBest: gridBest, grid: grid, range: lo...hi, restarted: restarted, &events)
    }

    /// The first character of a burst, tried on the alignments whose data is in (provisional
    /// slots included): nil while the best of them is not yet followed by two lower-scoring
    /// ones and the whole search is still to come, ``Outcome/later`` when the best is `hi`
    /// itself (while ``mayMoveRange``), otherwise what ``refine`` decided.
    mutating func earlySearch(lo: Double, hi: Double, _ events: inout [ModemEvent]) -> Outcome? {
        let nominal = segmentsPerBit
        scorer.setBoundaries(start: lo, step: nominal)
        let last = ringEnd - storage.boundaries[frameBits]
        guard last >= 2 else { return nil }
        let (best, scored, complete) = coarseSearch(lo: lo, hi: hi, step: nominal, upTo: last)
        guard complete || best.a + 2 <= lo + Double(scored - 1) else { return nil }
        if best.a >= hi && mayMoveRange { return .later }
        // The rate refinement reads one segment past the character at the slowest rate.
        let slowest = nominal * (1 + configuration.baudTolerance)
        guard roundToInt(best.a + Double(frameBits) * slowest) + 2 <= ringEnd else { return nil }
        return refine(best, gridBest: nil, grid: nil, &events)
    }

    /// Scores start times lo, lo + 1, ... up to hi (and at most `upTo` segments after lo) at
    /// one rate; returns the best, how many were scored and whether that reached hi.
    mutating func coarseSearch(lo: Double, hi: Double, step: Double, upTo: Int)
        -> (best: (a: Double, step: Double, score: Double), scored: Int, complete: Bool)
    {
        var best = (a: lo, step: step, score: -Double.infinity)
        scorer.setBoundaries(start: lo, step: step)
        var offset = 0
        while lo + Double(offset) <= hi {
            if offset > upTo { return (best, offset, false) }
            let s = scorer.score(offset: offset)
            if s > best.score { best = (lo + Double(offset), step, s) }
            offset += 1
        }
        return (best, offset, true)
    }

    /// Refines a coarse winner over bit rates and decides it (or, inside a burst, the
    /// clock's own candidate when it scores nearly as well).
    ///
    /// On the clock (`grid`), a winner whose half bit before is space is late: it gives way
    /// to the best start in `range` that follows mark when that scores within
    /// ``FSKTuning/gridPreference`` of the best. `restarted` (see ``search``): the clock's
    /// own candidate is tested first, and the start moves only the clock's phase.
    mutating func refine(
        _ coarseBest: (a: Double, step: Double, score: Double), gridBest: (a: Double, step: Double, score: Double)?,
        grid: Double?, range: ClosedRange<Double>? = nil, restarted: Bool = false, _ events: inout [ModemEvent]
    ) -> Outcome {
        let nominal = segmentsPerBit
        let tol = configuration.baudTolerance
        let center = grid == nil ? 1.0 : clock.scale
        var best = coarseBest
        // Off the clock: refine the winner over bit rates within the tolerance (whole
        // segments only: window edges round to segments, so half steps add nothing).
        // scale(i) = scaleCenter * (1 + i * scaleStep), i in -spread...spread: a tuple,
        // not an array literal, which would malloc on every search.
        let (scaleCenter, scaleStep, spread) = grid == nil ? (1.0, tol / 2, 2) : (center, tol / 4, 1)
        let coarse = best.a
        let atCenter = best
        for i in -spread...spread {
            let scale = scaleCenter * (1 + Double(i) * scaleStep)
            scorer.setBoundaries(start: coarse, step: nominal * scale)
            let around = scorer.scoresAround()
            if around.0 > best.score { best = (coarse - 1, nominal * scale, around.0) }
            if around.1 > best.score { best = (coarse, nominal * scale, around.1) }
            if around.2 > best.score { best = (coarse + 1, nominal * scale, around.2) }
        }
        // Many rates fit one clean character almost equally well: move off the expected
        // rate only when the character clearly says so.
        if best.step != atCenter.step && best.score < FSKTuning.rateChangeMargin * atCenter.score {
            best = atCenter
            scorer.setBoundaries(start: coarse, step: atCenter.step)
            for offset in [-1, 1] {
                let s = scorer.score(offset: offset)
                if s > best.score { best = (coarse + Double(offset), atCenter.step, s) }
            }
        }
        var reference: Double? = nil
        if let grid, let gridBest {
            if restarted, let range, let start = startAfterMark(gridBest.a, in: range, step: gridBest.step, best.score)
            {
                // The clock's candidate sits on a run of space bits that began earlier: the
                // sender restarted its clock in the idle line. Keep the burst's rate, take the
                // best start that follows mark, as a serial receiver starts at the edge.
                return decide(start: start.a, step: coarseBest.step, grid: start.a, &events)
            }
            // On the burst's clock only the phase is searched, near the expected start.
            if gridBest.score >= FSKTuning.gridPreference * best.score {
                best = gridBest
                // After a restart, a character more than a segment late was delayed by the
                // sender's idle line, not by a slow clock: it moves the clock's phase to
                // itself and leaves the rate alone. Taught as a timing error, every gap
                // pushed the rate slower (UART senders ran the clock 3-4 % slow, to the
                // tolerance's edge, and a later character read a bit late with status 0).
                // Early ones are still clock error: a UART cannot start before its stop
                // bit ends.
                reference = restarted && range != nil && best.a - grid > 1 ? best.a : grid
            }
        }
        // No character starts inside a run of space bits: a UART starts at the line's turn
        // from mark. A winner with space before it reads the character a bit late, a valid
        // frame of the wrong byte (Bell 103, gaps of 0-3 bits, a clock predicting late by half
        // a bit: 0x38 read as 0x9c at Eb/N0 79 dB, exit status 0).
        if let grid, let range, let start = startAfterMark(best.a, in: range, step: best.step, best.score) {
            return decide(start: start.a, step: best.step, grid: restarted ? start.a : grid, &events)
        }
        if grid == nil, let start = firstStartAfterMark(best) {
            return decide(start: start.a, step: best.step, grid: nil, &events)
        }
        return decide(start: best.a, step: best.step, grid: reference, &events)
    }

    /// True when `a` is where a start bit begins: the half bit before it is clearly mark and
    /// the half bit after it clearly space (``FSKTuning/edgeFraction`` of the burst's level
    /// each). A candidate late inside a run of space bits fails the first, one early
    /// on idle line the second (minimodem --stopbits 1.6).
    func startsAtEdge(_ a: Double, step: Double) -> Bool {
        let threshold = FSKTuning.edgeFraction * clock.power
        return -spaceExcess(a - step / 2, a) > threshold && spaceExcess(a, a + step / 2) > threshold
    }

    /// Space power minus mark power per sample over the segments from `lo` to `hi`
    /// (rounded), 0 when that is empty.
    func spaceExcess(_ lo: Double, _ hi: Double) -> Double {
        let l = roundToInt(lo)
        let h = roundToInt(hi)
        guard h > l else { return 0 }
        let w = windowSums(l, h)
        return (w.spaceEnergy - w.markEnergy) * 2 * w.inverseSamples * w.inverseSamples
    }

    /// True when the half bit or the whole bit before `a` is clearly space
    /// (``FSKTuning/lateStartFraction`` of `level`, the burst's, or more): a start there is late,
    /// inside a run of space bits. The half bit catches a start half a bit late; the whole
    /// bit, whose window holds twice the tone cycles, catches one a bit late (a valid frame
    /// of the wrong byte) where the half bit's discrimination is too coarse (2450 baud).
    func spaceBefore(_ a: Double, step: Double, level: Double) -> Bool {
        let threshold = FSKTuning.lateStartFraction * level
        return spaceExcess(a - step / 2, a) > threshold || spaceExcess(a - step, a) > threshold
    }

    /// When `a` is late inside a run of space bits (``spaceBefore``): the best start in
    /// `range` that follows mark, if it scores within ``FSKTuning/gridPreference`` of
    /// `score`. Nil when `a` follows mark or no start in the range does well enough. Space
    /// is judged at `level` (default: the burst's, ``BitClock/power``).
    mutating func startAfterMark(
        _ a: Double, in range: ClosedRange<Double>, step: Double, _ score: Double, level: Double? = nil
    ) -> (a: Double, score: Double)? {
        let level = level ?? clock.power
        guard spaceBefore(a, step: step, level: level),
            let start = bestStartAfterMark(in: range, step: step, level: level),
            start.score >= FSKTuning.gridPreference * score
        else { return nil }
        return start
    }

    /// The best-scoring start in `range` at `step` with no space before it (``spaceBefore``
    /// at `level`), with its score; nil when there is none.
    mutating func bestStartAfterMark(in range: ClosedRange<Double>, step: Double, level: Double)
        -> (a: Double, score: Double)?
    {
        scorer.setBoundaries(start: range.lowerBound, step: step)
        var bestA = -1.0
        var bestScore = -Double.infinity
        var offset = 0
        while range.lowerBound + Double(offset) <= range.upperBound {
            let a = range.lowerBound + Double(offset)
            let score = scorer.score(offset: offset)
            if score > bestScore, !spaceBefore(a, step: step, level: level) {
                bestA = a
                bestScore = score
            }
            offset += 1
        }
        return bestScore > -Double.infinity ? (bestA, bestScore) : nil
    }

    /// A burst's first character whose best start has space before it: the best start that
    /// follows mark up to ``FSKDemodulator/frameBits`` - 2 bits earlier (and not before the
    /// last character decided ends), when it scores within ``FSKTuning/gridPreference`` of
    /// `best`; nil otherwise.
    ///
    /// A character whose first data bits are 0 continues its start bit's space, and read a
    /// bit late it is still a valid frame, of another byte: after a short preamble the later
    /// alignment can score as well or better (minimodem --tx 300 sends two bits of mark, so
    /// 0x00 came out as 0x80 and 0x80 as 0xc0, exit status 0). A UART starts at the line's
    /// turn from mark; a burst's first start has no clock to place it, so the rule the clock
    /// applies (``startAfterMark``) is applied back over the data bits. The level is the
    /// candidate's own (its score per bit), as there is no burst level yet.
    mutating func firstStartAfterMark(_ best: (a: Double, step: Double, score: Double)) -> (a: Double, score: Double)? {
        let level = 2 * best.score / (Double(frameBits) * best.step * Double(segmentLength))
        // Not into the character decided last (its stop bit ended at clock.lastEnd), nor
        // out of the ring.
        let earliest = max(
            best.a - Double(frameBits - 2) * best.step, clock.lastEnd, Double(ringEnd - ringMask) + best.step + 2)
        guard level > 0, earliest < best.a else { return nil }
        return startAfterMark(best.a, in: earliest...best.a, step: best.step, best.score, level: level)
    }
}
