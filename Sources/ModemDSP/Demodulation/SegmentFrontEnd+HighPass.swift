// The front end's per-segment pipeline: high-pass correction of mixed segments and the
// ring of running sums that makes any window's correlations two subtractions.

extension SegmentFrontEnd {
    /// Runs mixed segments through the high-pass and into the prefix ring until
    /// ``segments`` reaches `due` (the demodulator's state machine has work then) or the
    /// segments run out; returns how many it took.
    ///
    /// Each raw segment is stored, then the segment `delay` places back is high-passed and
    /// its running sums appended to the ring. The high-pass subtracts a centred one-bit
    /// moving mean from the signal before it is correlated. Applied per segment it costs a
    /// few operations instead of a filter per sample: the mean m of segment k changes the
    /// segment's correlations by m * sum(e^-jwn) and its energy by -2 m sum(x) + B m^2. One
    /// bit holds whole tone cycles (SoftModem profiles) or nearly so, so the tones pass
    /// unchanged while DC, mains hum, coupling-capacitor transients and slow wander drop by
    /// 30-50 dB.
    ///
    /// The inner loop keeps the pipeline's state (counters, running sums) in registers: it
    /// makes no calls (a call would force every floating-point value in it to the stack) and
    /// runs a precomputed count, up to the next thing the outer loop must do (the search is
    /// due, a running sum needs rebasing, the block ends). The first `delay` segments of a
    /// stream, which have nothing to correct yet, go through the outer loop one at a time.
    mutating func append(_ mixed: UnsafePointer<FSKDemodulator.MixedSegment>, _ count: Int, until due: Int) -> Int {
        let q = storage.raw
        let ring = storage.ring
        let rawMask = self.rawMask
        let ringMask = self.ringMask
        let d = delay
        let window = self.window
        let b = Double(segmentLength)
        let inverseWindow = inverseWindowSamples
        let sums = mixer.segmentSums
        let period = mixer.segmentsPerPeriod
        let lowBack = window - 1 - d
        var r = rawCount
        var px = rawPrefixX
        var seg = segments
        var position = correctionPosition
        var p = prefix
        var i = 0
        while i < count {
            if r < d {
                // Warm-up: store only.
                let segment = mixed[i]
                let x = Double(segment.sum)
                q[r & rawMask] = RawSegment(
                    tones: SIMD4<Double>(segment.tones), x: x, xx: Double(segment.sumOfSquares), prefixX: px)
                position = position + 1 == period ? 0 : position + 1
                px += x
                r += 1
                i += 1
            } else if r < window - 1 {
                // The stream's first segments: their high-pass window is cut short by the
                // stream's start, so its mean is over the segments there are.
                let segment = mixed[i]
                i += 1
                let x = Double(segment.sum)
                q[r & rawMask] = RawSegment(
                    tones: SIMD4<Double>(segment.tones), x: x, xx: Double(segment.sumOfSquares), prefixX: px)
                let lo = max(0, r - d - lowBack)
                let mean = (px + x - q[lo & rawMask].prefixX) * (1 / (Double(r + 1 - lo) * b))
                seg += 1
                Self.correct(
                    q[(r - d) & rawMask], mean: mean, tonesPerUnit: sums[position], samples: b, &p,
                    into: ring + 6 * (seg & ringMask))
                position = position + 1 == period ? 0 : position + 1
                px += x
                r += 1
            } else {
                // From here on every raw segment completes one corrected segment, so the
                // counters move together and the stopping points are known in advance.
                let run = min(count - i, max(due - seg, 1), 0x10000 - (seg & 0xFFFF), 0x10000 - (r & 0xFFFF))
                let back = window &- 1
                for _ in 0..<run {
                    let segment = mixed[i]
                    i &+= 1
                    // Finite by construction: samples are clipped and NaN is zeroed as they are mixed.
                    let x = Double(segment.sum)
                    q[r & rawMask] = RawSegment(
                        tones: SIMD4<Double>(segment.tones), x: x, xx: Double(segment.sumOfSquares), prefixX: px)
                    let mean = (px + x - q[(r &- back) & rawMask].prefixX) * inverseWindow
                    seg &+= 1
                    Self.correct(
                        q[(r &- d) & rawMask], mean: mean, tonesPerUnit: sums[position], samples: b, &p,
                        into: ring + 6 &* (seg & ringMask))
                    position = position &+ 1 == period ? 0 : position &+ 1
                    px += x
                    r &+= 1
                }
            }
            if seg & 0xFFFF == 0 && seg > 0 {
                Self.rebase(ring, count: storage.ringCount, oldest: 6 * ((seg - ringMask) & ringMask), &p)
            }
            if r & 0xFFFF == 0 { Self.rebaseRaw(q, count: storage.rawCount, &px) }
            // The state machine says when it next has work; between, segments only fill the
            // ring.
            if seg >= due { break }
        }
        (rawCount, rawPrefixX, segments, prefix, correctionPosition) = (r, px, seg, p, position)
        return i
    }

    /// High-passes one raw segment `c` (subtracts the moving mean `mean` from its samples),
    /// adds it to the running sums `p` and stores them in the ring slot `slot`.
    ///
    /// Why it is this cheap: a mean m changes the segment's correlations by m times what a
    /// constant 1 correlates to (`tonesPerUnit`), its sum by m B and its energy by
    /// -2 m sum(x) + B m^2 (never below zero, which rounding could otherwise reach).
    @inline(__always)
    static func correct(
        _ c: RawSegment, mean: Double, tonesPerUnit: SIMD4<Double>, samples b: Double,
        _ p: inout PrefixSums, into slot: UnsafeMutablePointer<Double>
    ) {
        p.tones += c.tones - mean * tonesPerUnit
        p.x += c.x - mean * b
        p.xx += max(c.xx - 2 * mean * c.x + b * mean * mean, 0)
        slot[0] = p.tones[0]
        slot[1] = p.tones[1]
        slot[2] = p.tones[2]
        slot[3] = p.tones[3]
        slot[4] = p.x
        slot[5] = p.xx
    }

    /// The raw prefix of x only ever enters as a difference within the raw ring.
    static func rebaseRaw(_ q: UnsafeMutablePointer<RawSegment>, count: Int, _ rawPrefixX: inout Double) {
        let base = rawPrefixX
        for slot in 0..<count { q[slot].prefixX -= base }
        rawPrefixX = 0
    }

    /// Keeps prefix sums small so long streams lose no precision: only differences inside
    /// the ring are ever used, so subtracting a common base changes nothing else.
    static func rebase(_ r: UnsafeMutablePointer<Double>, count: Int, oldest: Int, _ prefix: inout PrefixSums) {
        let base = (r[oldest], r[oldest + 1], r[oldest + 2], r[oldest + 3], r[oldest + 4], r[oldest + 5])
        for slot in stride(from: 0, to: count, by: 6) {
            r[slot] -= base.0
            r[slot + 1] -= base.1
            r[slot + 2] -= base.2
            r[slot + 3] -= base.3
            r[slot + 4] -= base.4
            r[slot + 5] -= base.5
        }
        prefix.tones -= SIMD4(base.0, base.1, base.2, base.3)
        prefix.x -= base.4
        prefix.xx -= base.5
    }
}

/// Correlations and energies over one window of whole segments.
struct Window {
    var mr, mi, sr, si, x, xx: Double
    var samples: Double
    /// 1 / samples (infinity for an empty window).
    var inverseSamples: Double
    @inline(__always) var markEnergy: Double { mr * mr + mi * mi }
    @inline(__always) var spaceEnergy: Double { sr * sr + si * si }
    /// Energy with the window's mean removed (DC and slow hum do not count).
    @inline(__always) var detrendedEnergy: Double { max(xx - x * x * inverseSamples, 0) }
}

/// One mixed segment awaiting its high-pass correction.
struct RawSegment {
    /// Mark re, im, space re, im against the stream's phase reference.
    var tones: SIMD4<Double>
    var x: Double
    var xx: Double
    /// Sum of x over all segments before this one (rebased now and then).
    var prefixX: Double
}

/// Running sums of corrected segments, as stored in the prefix ring.
struct PrefixSums {
    var tones = SIMD4<Double>.zero
    var x = 0.0
    var xx = 0.0
}

extension SegmentFrontEnd {
    /// Writes provisional running sums for the `delay` raw segments still awaiting their
    /// high-pass into the ring slots after ``segments``, and returns how many segments the
    /// ring then covers (raw segments included).
    ///
    /// Why: the centred high-pass holds every segment back half a bit until the segments
    /// after it are in, and that half bit would come on top of every character's latency
    /// live. A tentative decision (``FSKDemodulator/advance(_:)``) reads these slots instead: each is
    /// corrected by the mean of the segments available so far (half a bit to just under a
    /// bit, the same truncation the stream's first segments get), which removes DC and
    /// hum as well; only the tones' leakage differs, by a few per cent of a mean that is
    /// itself small. The slots are overwritten by the final values as segments complete,
    /// and nothing else reads past ``segments``.
    func writeProvisionalTail() -> Int {
        let r = rawCount
        guard r >= delay else { return segments }
        let q = storage.raw
        let ring = storage.ring
        let b = Double(segmentLength)
        let lowBack = window - 1 - delay
        let sums = mixer.segmentSums
        let period = mixer.segmentsPerPeriod
        let end = rawPrefixX  // prefix of x over every raw segment in
        var p = prefix
        var position = correctionPosition
        var k = r - delay
        var slot = segments
        while k < r {
            let lo = max(0, k - lowBack)
            let mean = (end - q[lo & rawMask].prefixX) / (Double(r - lo) * b)
            slot += 1
            Self.correct(
                q[k & rawMask], mean: mean, tonesPerUnit: sums[position], samples: b, &p,
                into: ring + 6 * (slot & ringMask))
            position = position + 1 == period ? 0 : position + 1
            k += 1
        }
        return slot
    }
}
