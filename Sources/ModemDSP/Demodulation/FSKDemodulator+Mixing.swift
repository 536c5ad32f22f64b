// The mixer: samples into segments of four tone correlations, a sum and a sum of squares.
// Plain static functions over raw pointers, called once per block of segments.

extension FSKDemodulator {
    /// A segment being mixed: its sums split by the parity of the sample's place in the
    /// segment (even samples in the low lanes, odd in the high ones), added up at the end.
    ///
    /// Why split: two neighbouring samples then mix in one eight-lane multiply-add (one
    /// instruction with AVX, two with SSE) instead of two four-lane ones, and a partial
    /// segment finished by the next call adds exactly what a whole one would, in the same
    /// order, so chunking never changes a result.
    struct SegmentAccumulator {
        /// Mark cos, -sin, space cos, -sin: even samples, then odd ones.
        var tones = SIMD8<Float>.zero
        /// Sum of samples, even then odd.
        var sum = SIMD2<Float>.zero
        /// Sum of squares, even then odd.
        var sumOfSquares = SIMD2<Float>.zero

        @inline(__always)
        var segment: MixedSegment {
            MixedSegment(tones: tones.lowHalf + tones.highHalf, sum: sum[0] + sum[1],
                         sumOfSquares: sumOfSquares[0] + sumOfSquares[1])
        }
    }

    /// Clips to +-4 and reads NaN as silence in one select (NaN fails both comparisons), so
    /// segments can never hold a non-finite value.
    @inline(__always)
    static func clipped(_ u: Float) -> Float {
        u >= -4 && u <= 4 ? u : (u > 4 ? 4 : (u < -4 ? -4 : 0))
    }

    /// Two neighbouring samples, at an even place `j` and `j + 1` of a segment, into its sums
    /// against the table entries at `t` (the entries for `j` and `j + 1`).
    @inline(__always)
    static func mixPair(_ v: SIMD2<Float>, _ t: UnsafeRawPointer, _ a: inout SegmentAccumulator) {
        let both = SIMD8(lowHalf: SIMD4(repeating: v[0]), highHalf: SIMD4(repeating: v[1]))
        a.tones += both * t.loadUnaligned(as: SIMD8<Float>.self)
        a.sum += v
        a.sumOfSquares += v * v
    }

    /// One sample at place `j` of a segment into its sums, against the table entry `t`.
    @inline(__always)
    static func mixOne(_ v: Float, place j: Int, _ t: SIMD4<Float>, _ a: inout SegmentAccumulator) {
        if j & 1 == 0 {
            a.tones.lowHalf += v * t
            a.sum[0] += v
            a.sumOfSquares[0] += v * v
        } else {
            a.tones.highHalf += v * t
            a.sum[1] += v
            a.sumOfSquares[1] += v * v
        }
    }

    /// `count` samples into the partial segment `a`, whose first `fill` places are done,
    /// against the period's table `tp` for that segment.
    static func mixPartial(_ x: UnsafePointer<Float>, _ count: Int, _ tp: UnsafePointer<SIMD4<Float>>, fill: Int, _ a: inout SegmentAccumulator) {
        for i in 0..<count { mixOne(clipped(x[i]), place: fill &+ i, tp[fill &+ i], &a) }
    }

    /// `count` whole segments of `b` samples from `x` into `out`, the first against the
    /// mixer period's segment `position`; returns the position after the last.
    ///
    /// Blocks with nothing to clip (the rule, checked eight samples at a time) take a loop
    /// without the clipping select that mixes two segments side by side: each segment's sums
    /// are serial chains of additions, and two independent ones keep the processor busy
    /// where one makes it wait. Results are the same either way, to the bit.
    ///
    /// The usual segment lengths (6 samples: 1225 baud at 44.1 and 48 kHz; 3: 2450 baud) get
    /// copies of the loop with the length known, which the compiler unrolls completely: at
    /// a few samples per segment the loop's own bookkeeping otherwise costs as much as the
    /// mixing.
    static func mixWhole(_ x: UnsafePointer<Float>, _ count: Int, _ b: Int, _ mixer: ToneMixer,
                         from position: Int, into out: UnsafeMutablePointer<MixedSegment>) -> Int {
        switch b {
        case 6: mixWhole(x, count, segmentLength: 6, mixer, from: position, into: out)
        case 3: mixWhole(x, count, segmentLength: 3, mixer, from: position, into: out)
        default: mixWhole(x, count, segmentLength: b, mixer, from: position, into: out)
        }
    }

    @inline(__always)
    static func mixWhole(_ x: UnsafePointer<Float>, _ count: Int, segmentLength b: Int, _ mixer: ToneMixer,
                         from position: Int, into out: UnsafeMutablePointer<MixedSegment>) -> Int {
        let table = UnsafeRawPointer(mixer.table), period = mixer.segmentsPerPeriod
        let entry = MemoryLayout<SIMD4<Float>>.stride, pairs = b & ~1
        var position = position
        var k = 0
        if !needsClipping(x, count &* b) {
            while k &+ 1 < count {
                let next = position &+ 1 == period ? 0 : position &+ 1
                var a0 = SegmentAccumulator(), a1 = SegmentAccumulator()
                let x0 = UnsafeRawPointer(x + k &* b), x1 = x0 + b &* 4
                let p0 = table + position &* b &* entry, p1 = table + next &* b &* entry
                var j = 0
                while j < pairs {
                    mixPair(x0.loadUnaligned(fromByteOffset: j &* 4, as: SIMD2<Float>.self), p0 + j &* entry, &a0)
                    mixPair(x1.loadUnaligned(fromByteOffset: j &* 4, as: SIMD2<Float>.self), p1 + j &* entry, &a1)
                    j &+= 2
                }
                if pairs < b {
                    mixOne(x0.load(fromByteOffset: pairs &* 4, as: Float.self), place: pairs, p0.load(fromByteOffset: pairs &* entry, as: SIMD4<Float>.self), &a0)
                    mixOne(x1.load(fromByteOffset: pairs &* 4, as: Float.self), place: pairs, p1.load(fromByteOffset: pairs &* entry, as: SIMD4<Float>.self), &a1)
                }
                out[k] = a0.segment
                out[k &+ 1] = a1.segment
                position = next &+ 1 == period ? 0 : next &+ 1
                k &+= 2
            }
        }
        while k < count {
            var a = SegmentAccumulator()
            let xp = x + k &* b, tp = mixer.table + position &* b
            for j in 0..<b { mixOne(clipped(xp[j]), place: j, tp[j], &a) }
            out[k] = a.segment
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
