// The mixer: samples into segments of four tone correlations, a sum and a sum of squares.
// Plain static functions over raw pointers, called once per block of segments, specialised
// for each sample type (MixerSample).

/// A sample type the mixer reads: 32-bit float (full scale 1, clipped to +-4, NaN read as
/// silence) or 16-bit PCM (full scale 32768, read as x / 32768, never out of range).
///
/// Why 16-bit has a path of its own: decoding a 16-bit file otherwise converts every
/// sample to float in a pass of its own and checks every block for clipping. Mixed as
/// integers-in-floats, whole segments need neither; their sums are brought to full scale
/// at the end by a power of two (2^-15, and 2^-30 for squares), which commutes with every
/// rounding on the way, so the segments are the same to the bit as the float path's.
protocol MixerSample {
    /// Two neighbouring samples at `p`, in the units whole segments accumulate in.
    static func pair(_ p: UnsafeRawPointer) -> SIMD2<Float>
    /// One sample at `p`, in the same units.
    static func one(_ p: UnsafeRawPointer) -> Float
    /// Brings whole-segment sums and correlations (`sumScale`) and sums of squares
    /// (`squareScale`) to full scale 1.
    static var sumScale: Float { get }
    static var squareScale: Float { get }
    /// True when any of the `count` samples at `x` is NaN or beyond +-4 in full-scale units.
    static func needsClipping(_ x: UnsafePointer<Self>, _ count: Int) -> Bool
    /// One sample at full scale 1, clipped to +-4 and NaN read as silence.
    static func fullScale(_ v: Self) -> Float
}

extension Float: MixerSample {
    @inline(__always) static func pair(_ p: UnsafeRawPointer) -> SIMD2<Float> { p.loadUnaligned(as: SIMD2<Float>.self) }
    @inline(__always) static func one(_ p: UnsafeRawPointer) -> Float { p.loadUnaligned(as: Float.self) }
    static var sumScale: Float { 1 }
    static var squareScale: Float { 1 }
    @inline(__always) static func needsClipping(_ x: UnsafePointer<Float>, _ count: Int) -> Bool {
        FSKDemodulator.needsClipping(x, count)
    }
    @inline(__always) static func fullScale(_ v: Float) -> Float { FSKDemodulator.clipped(v) }
}

extension Int16: MixerSample {
    @inline(__always) static func pair(_ p: UnsafeRawPointer) -> SIMD2<Float> {
        SIMD2<Float>(SIMD2<Int32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD2<Int16>.self)))
    }
    @inline(__always) static func one(_ p: UnsafeRawPointer) -> Float { Float(p.loadUnaligned(as: Int16.self)) }
    static var sumScale: Float { 0x1p-15 }
    static var squareScale: Float { 0x1p-30 }
    @inline(__always) static func needsClipping(_ x: UnsafePointer<Int16>, _ count: Int) -> Bool { false }
    /// The scaling libsndfile applies for float reads (1/0x8000), exact in Float.
    @inline(__always) static func fullScale(_ v: Int16) -> Float { Float(v) * 0x1p-15 }
}

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
            MixedSegment(parts: tones, sum: sum[0] + sum[1], sumOfSquares: sumOfSquares[0] + sumOfSquares[1])
        }

        /// The segment, its sums times `scale` and its sum of squares times `squareScale`
        /// (powers of two: exact, so scaling the even and odd partial sums before they are
        /// added gives what scaling their sum would).
        @inline(__always)
        func segment(scale: Float, squareScale: Float) -> MixedSegment {
            MixedSegment(
                parts: tones * scale, sum: (sum[0] + sum[1]) * scale,
                sumOfSquares: (sumOfSquares[0] + sumOfSquares[1]) * squareScale)
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
    /// against the period's table `tp` for that segment (at full scale: a partial segment
    /// adds up exactly as the whole-segment loop's scaled sums do).
    static func mixPartial<S: MixerSample>(
        _ x: UnsafePointer<S>, _ count: Int, _ tp: UnsafePointer<SIMD4<Float>>, fill: Int, _ a: inout SegmentAccumulator
    ) {
        for i in 0..<count { mixOne(S.fullScale(x[i]), place: fill &+ i, tp[fill &+ i], &a) }
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
    static func mixWhole<S: MixerSample>(
        _ x: UnsafePointer<S>, _ count: Int, _ b: Int, _ mixer: ToneMixer,
        from position: Int, into out: UnsafeMutablePointer<MixedSegment>
    ) -> Int {
        switch b {
        case 6: mixWhole(x, count, segmentLength: 6, mixer, from: position, into: out)
        case 3: mixWhole(x, count, segmentLength: 3, mixer, from: position, into: out)
        default: mixWhole(x, count, segmentLength: b, mixer, from: position, into: out)
        }
    }

    @inline(__always)
    static func mixWhole<S: MixerSample>(
        _ x: UnsafePointer<S>, _ count: Int, segmentLength b: Int, _ mixer: ToneMixer,
        from position: Int, into out: UnsafeMutablePointer<MixedSegment>
    ) -> Int {
        let table = UnsafeRawPointer(mixer.table)
        let period = mixer.segmentsPerPeriod
        let entry = MemoryLayout<SIMD4<Float>>.stride
        let pairs = b & ~1
        let width = MemoryLayout<S>.stride
        let scale = S.sumScale
        let squareScale = S.squareScale
        var position = position
        var k = 0
        if !S.needsClipping(x, count &* b) {
            while k &+ 1 < count {
                let next = position &+ 1 == period ? 0 : position &+ 1
                var a0 = SegmentAccumulator()
                var a1 = SegmentAccumulator()
                let x0 = UnsafeRawPointer(x + k &* b)
                let x1 = x0 + b &* width
                let p0 = table + position &* b &* entry
                let p1 = table + next &* b &* entry
                var j = 0
                while j < pairs {
                    mixPair(S.pair(x0 + j &* width), p0 + j &* entry, &a0)
                    mixPair(S.pair(x1 + j &* width), p1 + j &* entry, &a1)
                    j &+= 2
                }
                if pairs < b {
                    mixOne(
                        S.one(x0 + pairs &* width), place: pairs,
                        p0.load(fromByteOffset: pairs &* entry, as: SIMD4<Float>.self), &a0)
                    mixOne(
                        S.one(x1 + pairs &* width), place: pairs,
                        p1.load(fromByteOffset: pairs &* entry, as: SIMD4<Float>.self), &a1)
                }
                out[k] = a0.segment(scale: scale, squareScale: squareScale)
                out[k &+ 1] = a1.segment(scale: scale, squareScale: squareScale)
                position = next &+ 1 == period ? 0 : next &+ 1
                k &+= 2
            }
        }
        while k < count {
            var a = SegmentAccumulator()
            let xp = x + k &* b
            let tp = mixer.table + position &* b
            for j in 0..<b { mixOne(S.fullScale(xp[j]), place: j, tp[j], &a) }
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
}
