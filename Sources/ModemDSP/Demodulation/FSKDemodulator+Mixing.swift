// The mixer: samples into segments of four tone correlations, a sum and a sum of squares.
// Plain static functions over raw pointers, called once per block of segments.

extension FSKDemodulator {
    /// One sample into a segment's sums. Clips to +-4 and reads NaN as silence in one select
    /// (NaN fails both comparisons), so segments can never hold a non-finite value.
    @inline(__always)
    static func mix(_ u: Float, _ tone: SIMD4<Float>, _ tones: inout SIMD4<Float>, _ sx: inout Float, _ sxx: inout Float) {
        let v: Float = u >= -4 && u <= 4 ? u : (u > 4 ? 4 : (u < -4 ? -4 : 0))
        tones += v * tone
        sx += v
        sxx += v * v
    }

    /// `count` samples into the partial segment `segment`, against table entries from `tp`.
    @inline(__always)
    static func mixPartial(_ x: UnsafePointer<Float>, _ count: Int, _ tp: UnsafePointer<SIMD4<Float>>, _ segment: inout MixedSegment) {
        var tones = segment.tones, sx = segment.sum, sxx = segment.sumOfSquares
        for j in 0..<count { mix(x[j], tp[j], &tones, &sx, &sxx) }
        segment = MixedSegment(tones: tones, sum: sx, sumOfSquares: sxx)
    }

    /// `count` whole segments of `b` samples from `x` into `out`, the first against the
    /// mixer period's segment `position`; returns the position after the last.
    ///
    /// Blocks with nothing to clip (the rule, checked four samples at a time) take a loop
    /// without the clipping select that mixes two segments side by side: each segment's sums
    /// are one serial chain of additions, and two independent chains keep the processor busy
    /// where one makes it wait. Results are the same either way, to the bit.
    @inline(__always)
    static func mixWhole(_ x: UnsafePointer<Float>, _ count: Int, _ b: Int, _ mixer: ToneMixer,
                                 from position: Int, into out: UnsafeMutablePointer<MixedSegment>) -> Int {
        let table = mixer.table, period = mixer.segmentsPerPeriod
        var position = position
        var k = 0
        if !needsClipping(x, count &* b) {
            while k &+ 1 < count {
                let next = position &+ 1 == period ? 0 : position &+ 1
                var t0 = SIMD4<Float>.zero, t1 = SIMD4<Float>.zero
                var s0: Float = 0, ss0: Float = 0, s1: Float = 0, ss1: Float = 0
                let x0 = x + k &* b, x1 = x0 + b
                let p0 = table + position &* b, p1 = table + next &* b
                for j in 0..<b {
                    let v0 = x0[j], v1 = x1[j]
                    t0 += v0 * p0[j]
                    s0 += v0
                    ss0 += v0 * v0
                    t1 += v1 * p1[j]
                    s1 += v1
                    ss1 += v1 * v1
                }
                out[k] = MixedSegment(tones: t0, sum: s0, sumOfSquares: ss0)
                out[k &+ 1] = MixedSegment(tones: t1, sum: s1, sumOfSquares: ss1)
                position = next &+ 1 == period ? 0 : next &+ 1
                k &+= 2
            }
        }
        while k < count {
            var tones = SIMD4<Float>.zero
            var sx: Float = 0, sxx: Float = 0
            let xp = x + k &* b, tp = table + position &* b
            for j in 0..<b { mix(xp[j], tp[j], &tones, &sx, &sxx) }
            out[k] = MixedSegment(tones: tones, sum: sx, sumOfSquares: sxx)
            position = position &+ 1 == period ? 0 : position &+ 1
            k &+= 1
        }
        return position
    }

    /// True when any of the `count` samples at `x` is NaN or beyond +-4.
    @inline(__always)
    static func needsClipping(_ x: UnsafePointer<Float>, _ count: Int) -> Bool {
        var outside = SIMDMask<SIMD4<Int32>>(repeating: false)
        var i = 0
        let raw = UnsafeRawPointer(x)
        while i &+ 8 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
            let w = raw.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD4<Float>.self)
            // NaN fails the comparison, so it counts as outside.
            outside .|= .!((v .>= -4) .& (v .<= 4) .& (w .>= -4) .& (w .<= 4))
            i &+= 8
        }
        while i < count {
            if !(abs(x[i]) <= 4) { return true }
            i &+= 1
        }
        return any(outside)
    }

    /// The segment `distance` places before `position` in a period of `period` segments.
    static func positionBehind(_ position: Int, by distance: Int, period: Int) -> Int {
        ((position - distance) % period + period) % period
    }
}
