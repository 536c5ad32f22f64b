// Finding characters: the start-bit hunt and following a burst's bit clock (the
// alignment search itself is in FSKDemodulator+AlignmentSearch.swift).

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
                if end <= segments {
                    mode = .triggered(end, early: true)
                    rangeMoves = 0
                }
            case .triggered(let end, let early):
                guard searchFirstCharacter(triggeredAt: end, early: early, &events) else { return }
            case .following(let e, let idle, let lost):
                // The clock's own candidates need only the character plus two segments, read
                // before the high-pass has the segments after them (a third of a bit after the
                // stop bit, live); the wide search needs half a bit more at the slowest rate
                // (three quarters after a restart, see follow), and final data. Try the first
                // as soon as its data is in; wait for the rest only if it does not settle it.
                let step = segmentsPerBit * clock.scale
                let half = Int(e + Double(window) / 2) + lookahead + 2
                let fast = min(half, roundToInt(e + Double(frameBits) * step) + 2 - delay)
                guard segments >= fast else {
                    nextDue = fast
                    return
                }
                let full =
                    idle > 0 || leansMark(e, step: step) ? Int(e + Double(window) * 0.75) + lookahead + 2 : half
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

    /// The start search of a burst's first character, triggered by the window ending at
    /// `end` (`early`: before the whole search's data is in, the alignments that are may
    /// be tried). Returns false when it must wait for more segments.
    mutating func searchFirstCharacter(triggeredAt end: Int, early: Bool, _ events: inout [ModemEvent]) -> Bool {
        let lo = Double(end - window - 1)
        let hi = Double(end)
        guard segments >= end + lookahead else {
            // Before the whole search's data is in, try the alignments that are:
            // when the best of them is followed by two that score lower, the rest
            // (later starts) would only move further off the character.
            guard early else {
                nextDue = end + lookahead
                return false
            }
            beginTentative()
            let outcome = earlySearch(lo: lo, hi: hi, &events)
            endTentative()
            switch outcome {
            case .accepted(let next)?:
                mode = .following(expect: next, idleBits: 0, lostSlots: 0)
                return true
            case .later?:
                moveRange(end)
                return true
            case nil:
                nextDue = min(segments + 1, end + lookahead)
            default:
                mode = .triggered(end, early: false)
                nextDue = end + lookahead
            }
            return false
        }
        let outcome = search(lo: lo, hi: hi, grid: nil, &events)
        switch outcome {
        case .accepted(let next):
            mode = .following(expect: next, idleBits: 0, lostSlots: 0)
        case .framingError(let a), .rejected(let a):
            huntEnd = max(end + 1, roundToInt(a + Double(window) / 2) + window)
            mode = .hunting
        case .later:
            moveRange(end)
        case .needMore:
            preconditionFailure("only tentative searches ask for more data")
        }
        return true
    }

    /// Moves a first character's search range on (``Outcome/later``). An early search's
    /// verdict on provisional data is acted on at once: the moved range keeps the later
    /// half of the old one, so a start there is still found on final data.
    mutating func moveRange(_ end: Int) {
        mode = .triggered(end + max(1, roundToInt(Double(window) * FSKTuning.triggerRangeShift)), early: true)
        rangeMoves += 1
    }

    /// True while a first character's best start at its range's last one moves the range
    /// on rather than being decided (at most ``FSKTuning/maxRangeMoves`` times).
    var mayMoveRange: Bool { rangeMoves < FSKTuning.maxRangeMoves }

    /// True when the bit window at `e` holds more mark than space: where a start bit was
    /// due, the sender restarted its clock after a fraction of a bit of idle line.
    func leansMark(_ e: Double, step: Double) -> Bool {
        let w = windowSums(roundToInt(e), roundToInt(e + step))
        return w.markEnergy > w.spaceEnergy
    }

    /// True when the second half of the window [lo, hi) holds more space than mark. Judged
    /// on the half alone, not the whole window's ratio: noise on a true idle bit of Bell
    /// 103 (whose tones leak into each other) often pulls the ratio under the clear-idle 4,
    /// but seldom turns half a bit to space.
    func endsInSpace(_ lo: Int, _ hi: Int) -> Bool {
        let h = windowSums((lo + hi) / 2, hi)
        return h.spaceEnergy > h.markEnergy
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
        // Idle line breaks the run of back-to-back characters the frame phase is judged on.
        if idleBits > 0 { framePhase.clear() }
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
            // Half a bit around the clock (senders slip it: the firmware's glitch every 64 bytes);
            // three quarters after a restart (a gap of any length: minimodem --stopbits 2.5).
            let restarted = idleBits > 0 || em > es
            let early = idleBits > 0 ? 1.5 * half : half
            let late = restarted ? 1.5 * half : half
            switch search(lo: e - early, hi: e + late, grid: e, restarted: restarted, &events) {
            case .needMore:
                needMore = true
                return
            case .accepted(let next):
                framePhase.noteStart(next - Double(frameBits) * step, expected: e, step: step)
                mode = .following(expect: next, idleBits: 0, lostSlots: 0)
                return
            case .framingError(let a):
                if followFramingError(at: a, expect: e, step: step, lostSlots: lostSlots) { return }
            case .rejected where idleLike && idleBits < FSKTuning.maxIdleBits:
                // Not a character after all: the mark-leaning window was an idle bit.
                mode = .following(expect: e + step, idleBits: idleBits + 1, lostSlots: lostSlots)
                return
            case .rejected
            where idleBits == 0 && lostSlots < FSKTuning.maxLostSlots
                && isLostCharacter(at: e, step: step, w, tones: (em + es) * w.inverseSamples):
                // A character on the clock too weak to trust: lose it, keep the clock. Going
                // back to hunting in the middle of a burst risks locking onto a data bit.
                reportLostSlot(at: e, step: step, window: w, &events)
                mode = .following(expect: e + Double(frameBits) * step, idleBits: 0, lostSlots: lostSlots + 1)
                return
            default:
                break
            }
        } else if idleBits > 0 && idleBits < FSKTuning.maxIdleBits && em < FSKTuning.clearIdleRatio * es
            && endsInSpace(lo, hi)
            && clock.carriesBurst(energy: w.detrendedEnergy, samples: w.samples)
        {
            // After idle bits, a window whose second half is space ends the idle line and
            // begins a character mid-window (a clock restarted after a gap of any length:
            // minimodem --stopbits 2.5). Half a bit on, the start bit fills the window and its
            // search is centred on it; a whole bit on, it is at the search's edge.
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
}
