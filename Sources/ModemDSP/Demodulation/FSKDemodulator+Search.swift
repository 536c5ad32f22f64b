// Finding characters: the start-bit hunt, following a burst's bit clock, and scoring
// alignments (start times and bit rates) of a candidate character.

extension FSKDemodulator {
    /// Segments a whole character spans at the slowest rate searched, plus margin.
    var lookahead: Int { lookaheadSegments }

    mutating func advance(_ events: inout [ModemEvent]) {
        ringEnd = segments
        while true {
            switch mode {
            case .hunting:
                // Windows are tested in order whenever the state machine runs, so testing
                // them a bit's worth at a time decides exactly the same, with fewer calls.
                guard huntEnd <= segments else {
                    nextDue = huntEnd + window - 1
                    return
                }
                if huntEnd - window < segments - ringMask { huntEnd = segments - ringMask + window }
                // Every window in silence or noise is tested: a loop of its own, rather than a
                // turn of the state machine per window, halves the hunt's cost.
                var end = huntEnd
                while end <= segments && !triggers(at: end) { end += 1 }
                huntEnd = end
                if end <= segments { mode = .triggered(end, early: true) }
            case .triggered(let end, let early):
                let lo = Double(end - window - 1)
                let hi = Double(end)
                guard segments >= end + lookahead else {
                    // Before the whole search's data is in, try the alignments that are:
                    // when the best of them is followed by two that score lower, the rest
                    // (later starts) would only move further off the character.
                    guard early else {
                        nextDue = end + lookahead
                        return
                    }
                    beginTentative()
                    let outcome = earlySearch(lo: lo, hi: hi, &events)
                    endTentative()
                    switch outcome {
                    case .accepted(let next)?:
                        mode = .following(expect: next, idleBits: 0, lostSlots: 0)
                        continue
                    case nil:
                        nextDue = min(segments + 1, end + lookahead)
                    default:
                        mode = .triggered(end, early: false)
                        nextDue = end + lookahead
                    }
                    return
                }
                let outcome = search(lo: lo, hi: hi, grid: nil, &events)
                switch outcome {
                case .accepted(let next):
                    mode = .following(expect: next, idleBits: 0, lostSlots: 0)
                case .framingError(let a), .rejected(let a):
                    huntEnd = max(end + 1, roundToInt(a + Double(window) / 2) + window)
                    mode = .hunting
                case .needMore:
                    preconditionFailure("only tentative searches ask for more data")
                }
            case .following(let e, let idle, let lost):
                // The clock's own candidates need only the character plus two segments,
                // read before the high-pass has the segments after them (a third of a bit
                // after the stop bit, live); the wide search needs half a bit more at the
                // slowest rate, and final data. Try the first as soon as its data is in,
                // and wait for the rest only when it does not settle the character.
                // The search reaches three quarters of a bit after idle bits (see follow).
                let full = Int(e + Double(window) * (idle > 0 ? 0.75 : 0.5)) + lookahead + 2
                let step = segmentsPerBit * clock.scale
                let fast = min(full, roundToInt(e + Double(frameBits) * step) + 2 - delay)
                guard segments >= fast else {
                    nextDue = fast
                    return
                }
                if segments < full { beginTentative() }
                needMore = false
                follow(expect: e, idleBits: idle, lostSlots: lost, &events)
                endTentative()
                if needMore {
                    nextDue = full
                    return
                }
            }
        }
    }

    /// Lets the decisions until ``endTentative()`` read the provisional ring slots of the
    /// segments still awaiting their high-pass (``SegmentFrontEnd/writeProvisionalTail()``).
    mutating func beginTentative() {
        ringEnd = front.writeProvisionalTail()
        tentative = true
    }

    /// Back to final data only.
    mutating func endTentative() {
        tentative = false
        ringEnd = segments
    }

    /// Inside a burst: the next character should start on the previous one's bit clock,
    /// after any number of idle mark bits. Looking there directly (instead of waiting for a
    /// trigger) keeps weak back-to-back characters aligned; anything else ends the burst.
    mutating func follow(expect e: Double, idleBits: Int, lostSlots: Int, _ events: inout [ModemEvent]) {
        let step = segmentsPerBit * clock.scale
        let lo = roundToInt(e)
        let hi = roundToInt(e + step)
        let w = windowSums(lo, hi)
        let g = 2 * w.inverseSamples
        let em = w.markEnergy * g
        let es = w.spaceEnergy * g
        let noisePerBin = max(w.detrendedEnergy - max(em, es), 0) * g
        let power = abs(em - es) * w.inverseSamples
        let atLevel = clock.isAtLevel(power)
        let idleLike = em > es && atLevel && em - es > FSKTuning.idleMargin * noisePerBin
        // Straight after a character the next thing is usually a start bit: only a window
        // that is clearly mark counts as idle there, so a start bit that noise tipped
        // towards mark still gets the character search (and its coherent decision) instead
        // of the character's leading 1s being taken for idle bits.
        let clearlyIdle = idleLike && (idleBits > 0 || em > FSKTuning.clearIdleRatio * es)
        if !clearlyIdle && (es > em || idleBits == 0) {
            let half = Double(window) / 2
            // Look half a bit around the clock: senders restart their clock after idle bits
            // (Arduino writes) or slip it (the firmware's glitch every 64 bytes). After idle
            // bits, three quarters: a gap of any length (a UART writing byte by byte,
            // minimodem --stopbits 2.5) can put the start bit at half a bit's edge, where the
            // best alignment in range was a misread character half a bit late.
            let reach = idleBits > 0 ? 1.5 * half : half
            switch search(lo: e - reach, hi: e + reach, grid: e, afterIdle: idleBits > 0, &events) {
            case .needMore:
                needMore = true
                return
            case .accepted(let next):
                mode = .following(expect: next, idleBits: 0, lostSlots: 0)
                return
            case .framingError(let a) where abs(a - e) <= FSKTuning.framingSlack && lostSlots == 0:
                // Most likely a bit error on the clock we trust: stay on it, once. A second
                // one in a row means the clock itself is wrong.
                mode = .following(expect: a + Double(frameBits) * step, idleBits: 0, lostSlots: 1)
                return
            case .rejected where idleLike && idleBits < FSKTuning.maxIdleBits:
                // Not a character after all: the mark-leaning window was an idle bit.
                mode = .following(expect: e + step, idleBits: idleBits + 1, lostSlots: lostSlots)
                return
            case .rejected
            where idleBits == 0 && lostSlots < FSKTuning.maxLostSlots
                && clock.carriesBurst(energy: w.detrendedEnergy, samples: w.samples):
                // A character on the clock too weak to trust: lose it, keep the clock. Going
                // back to hunting in the middle of a burst risks locking onto a data bit.
                reportLostSlot(at: e, step: step, window: w, &events)
                mode = .following(expect: e + Double(frameBits) * step, idleBits: 0, lostSlots: lostSlots + 1)
                return
            default:
                break
            }
        } else if idleBits > 0 && em < FSKTuning.clearIdleRatio * es && idleBits < FSKTuning.maxIdleBits
            && clock.carriesBurst(energy: w.detrendedEnergy, samples: w.samples)
        {
            // After idle bits, a window neither clearly idle nor a start bit most likely ends
            // the idle line and begins a character mid-window (a clock restarted after a gap
            // of any length: minimodem --stopbits 2.5). Half a bit on, the start bit fills the
            // window and its search is centred on it; a whole bit on, it is at the search's edge.
            mode = .following(expect: e + step / 2, idleBits: idleBits + 1, lostSlots: lostSlots)
            return
        } else if idleLike && idleBits < FSKTuning.maxIdleBits {
            mode = .following(expect: e + step, idleBits: idleBits + 1, lostSlots: lostSlots)
            return
        } else if idleBits == 0 && lostSlots < FSKTuning.maxLostSlots
            && clock.carriesBurst(energy: w.detrendedEnergy, samples: w.samples)
        {
            // Right after a character, a window that is neither a start bit nor a clean idle
            // bit, with the burst's energy still there, is most likely a start bit flipped by
            // noise: that character is lost, but the clock is not. Skip its slot.
            reportLostSlot(at: e, step: step, window: w, &events)
            mode = .following(expect: e + Double(frameBits) * step, idleBits: 0, lostSlots: lostSlots + 1)
            return
        }
        // The burst has ended (or changed clock): hunt from here, covering a start bit that
        // began up to a bit before the expected position.
        huntEnd = max(roundToInt(e), window)
        confirmation.endBurst()
        mode = .hunting
    }

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
    mutating func search(
        lo: Double, hi: Double, grid: Double?, afterIdle: Bool = false, _ events: inout [ModemEvent]
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
            if !afterIdle && central && gridBest.score >= FSKTuning.gridFastPathFraction * expected {
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
        return refine(best, gridBest: gridBest, grid: grid, afterIdle: afterIdle, &events)
    }

    /// The first character of a burst, tried on the alignments whose data is in (provisional
    /// slots included): nil while the best of them is not yet followed by two lower-scoring
    /// ones and the whole search is still to come, otherwise what ``refine`` decided.
    mutating func earlySearch(lo: Double, hi: Double, _ events: inout [ModemEvent]) -> Outcome? {
        let nominal = segmentsPerBit
        scorer.setBoundaries(start: lo, step: nominal)
        let last = ringEnd - storage.boundaries[frameBits]
        guard last >= 2 else { return nil }
        let (best, scored, complete) = coarseSearch(lo: lo, hi: hi, step: nominal, upTo: last)
        guard complete || best.a + 2 <= lo + Double(scored - 1) else { return nil }
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
    mutating func refine(
        _ coarseBest: (a: Double, step: Double, score: Double), gridBest: (a: Double, step: Double, score: Double)?,
        grid: Double?, afterIdle: Bool = false, _ events: inout [ModemEvent]
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
        var onGrid = false
        if grid != nil, let gridBest {
            // On the burst's clock only the phase is searched, near the expected start.
            let preference = afterIdle ? FSKTuning.gridPreferenceAfterIdle : FSKTuning.gridPreference
            if gridBest.score >= preference * best.score {
                best = gridBest
                onGrid = true
            }
        }
        return decide(start: best.a, step: best.step, grid: onGrid ? grid : nil, &events)
    }
}
