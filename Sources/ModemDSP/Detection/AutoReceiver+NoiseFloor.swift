// A burst that begins while the receiver is still learning the input's noise floor.

extension AutoReceiver {
    /// While ignoring a stretch that opened before any quiet level was known (its quietest
    /// block is now the quiet level): a block 10 dB over that level, or over 1.4 times it
    /// with a profile's tone, is a burst beginning under the noise floor's cover. Opens it
    /// (once: the stretch is no longer blind) and returns true.
    ///
    /// Without this, a capture that opens with a second of noise (a sound card's floor)
    /// and a burst starting while that noise was still gathered lost the whole burst: the
    /// receiver ignored everything until two quiet blocks came.
    mutating func reopensAfterNoiseFloor(power: Double) -> Bool {
        guard blindQuiet >= 0, quiet > 0 else { return false }
        let loud = power > 10 * quiet
        // 1.4 times, not ``opensByTone(power:floor:)``: this floor is the quietest block of
        // a stretch that may have been a modem all along (minimodem's continuous text from
        // the first sample), and a tone at that level is the same burst, whose start the
        // stretch's analysis could not read: reopened there, it printed the rest of the
        // text without its first 59 bytes, with exit status 0.
        let weak = !loud && power > Self.weakLevel * quiet && lastBlockIsTonal()
        guard loud || weak else { return false }
        blindQuiet = -1
        weakBurst = weak
        decodeFrom = weak ? failedStretch?.start : nil
        failedStretch = nil
        let b = Int64(SignalSurvey.blockLength)
        state = .gathering(start: max(0, samplesConsumed - 2 * b), loudBlocks: 1, nextTry: Self.analysisBlocks)
        return true
    }
}

extension AutoReceiver {
    /// A stretch opened before any quiet level was known failed as a whole: with its
    /// quietest block as the floor (``quiet``), looks back through it for bursts (a run of
    /// blocks from one 10 dB over the floor, or 1.4 times it with a profile's tone, to one
    /// no longer 1.4 times over it) after the stretch's first block, and starts decoding at
    /// the first that is a modem, analysing that burst's blocks alone. A burst still under
    /// way at the end, with fewer blocks than an analysis needs, goes on being gathered.
    /// Returns true when it started or gathers one.
    ///
    /// Why: a capture that opens with noise is gathered for up to 24 blocks (1.1 s at
    /// 44.1 kHz) before its floor is known, and a short burst inside that stretch is a few
    /// blocks among noise, too few for the stretch's analysis to measure: every first
    /// 20-byte burst at 0 dB SNR after half a second of noise was lost, while the same
    /// bursts later in the capture decoded.
    mutating func regathersBlindStretch(from start: Int64, into events: inout [ModemEvent]) -> Bool {
        let b = SignalSurvey.blockLength
        let samples = history(from: start)
        let first = samplesConsumed - Int64(samples.count)
        let count = samples.count / b
        func power(_ k: Int) -> Double {
            var energy = 0.0
            for x in samples[(k * b)..<((k + 1) * b)] { energy += Double(x) * Double(x) }
            return energy / Double(b)
        }
        var k = 1
        while k < count {
            let p = power(k)
            guard p > 10 * quiet || (p > Self.weakLevel * quiet && isTonal(samples[(k * b)..<((k + 1) * b)])) else {
                k += 1
                continue
            }
            weakBurst = p <= 10 * quiet
            var end = k + 1
            while end < count && power(end) > Self.weakLevel * quiet { end += 1 }
            blindQuiet = -1
            let from = first + Int64((k - 1) * b)
            // The blocks before it that held its level or tone are its own opening (a modem
            // under the noise flickers across 1.4 times the floor): decoded too.
            var opening = k
            var misses: Int? = 0
            while opening > 1, let m = misses {
                let j = opening - 1
                misses = Self.misses(
                    after: m, holds: power(j) > Self.weakLevel * quiet || isTonal(samples[(j * b)..<((j + 1) * b)]))
                if misses != nil { opening = j }
            }
            decodeFrom = opening < k ? first + Int64((opening - 1) * b) : nil
            if end == count && count - (k - 1) < Self.analysisBlocks {
                state = .gathering(start: from, loudBlocks: count - k, nextTry: Self.analysisBlocks)
                return true
            }
            let analysed = (min(end + 1, count) - (k - 1)) * b
            if startBurst(from: from, canWait: false, analysing: analysed, into: &events) == .started { return true }
            decodeFrom = nil
            k = end + 1
        }
        return false
    }
}
