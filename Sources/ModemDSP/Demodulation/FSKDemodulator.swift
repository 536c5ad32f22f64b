/// A streaming, non-coherent binary FSK receiver for asynchronous (UART) characters.
///
/// How it works, and why:
/// * The input is mixed down against both tones in short segments of `B` samples (about a
///   sixth of a bit). Per sample that is four multiply-adds against a table plus a sum and
///   a sum of squares. The table spans a common period of both tones (``ToneMixer``), so
///   every segment comes out against one phase reference and any window of whole segments
///   can be correlated coherently later.
/// * Running (prefix) sums of those segment values sit in a ring covering a little more than
///   one character, so the energy of either tone over any window is two subtractions.
/// * A start bit is suspected when a one-bit window becomes space-dominated with a usable
///   signal-to-noise ratio. Then every start time within one bit, at bit rates within
///   +-``DemodulatorConfiguration/baudTolerance``, is scored over the whole character
///   (start must be space, stop must be mark, data bits score by how clearly they decide),
///   and the best alignment is decoded. No preamble is needed, and each character is
///   resynchronised on its own start bit; inside a burst the bit clock of the previous
///   character is preferred, which keeps weak back-to-back characters aligned.
/// * A character is reported only when its estimated Eb/N0 (tone energy over everything
///   else in the band, detrended per bit so DC offset and mains hum do not count) clears
///   the squelch. Every decision is a ratio, so the level does not matter (full scale down
///   to digital noise), and magnitudes ignore polarity, DC and square-wave harmonics.
///
/// Edge cases: NaN and infinite samples are treated as silence for the segment they fall
/// in; samples beyond +-4 are clipped to +-4; digital silence produces nothing. Memory is
/// fixed at initialisation; ``process(_:into:)`` never allocates unless `events` must grow.
public struct FSKDemodulator: Sendable {
    public private(set) var configuration: DemodulatorConfiguration
    /// Samples per mixing segment: a sixth of a bit. Finer timing (a twelfth) measured no
    /// better in noise and costs a third more time.
    public let segmentLength: Int
    /// Average segments per bit.
    public let segmentsPerBit: Double
    private let window: Int
    private let frameBits: Int
    private let stopBits: Int
    private let lookaheadSegments: Int
    private let sampleRate: Double

    // Mixer: both tones over a common period; `mixerPosition` is the period's segment
    // that the next (or the partial) segment is mixed against.
    private var mixer: ToneMixer
    private var mixerPosition = 0

    // Partial segment.
    private var acc = MixedSegment()
    private var fill = 0

    // Raw segments awaiting high-pass correction (storage.raw): correlations, sum x,
    // sum x^2, prefix of x before the segment. `correctionPosition` is the mixer period's
    // segment of the raw segment `delay` places back, the one corrected next.
    private let rawMask: Int
    private var rawCount = 0
    private var rawPrefixX = 0.0
    private let delay: Int
    private let inverseWindowSamples: Double
    private var correctionPosition = 0

    // Ring of prefix sums of corrected segments: 6 doubles per slot (mark re, im, space re,
    // im, sum x, sum x^2).
    private var storage: DemodulatorStorage
    private let ringMask: Int
    private var segments = 0
    private var prefix = PrefixSums()

    // Search state.
    private enum Mode {
        /// Testing one-bit windows for a start bit; the next window ends at `huntEnd`.
        case hunting
        /// A start bit was suspected in the window ending here; waiting for the character.
        case triggered(Int)
        /// Inside a burst: the next character or idle bit is expected at this segment.
        case following(expect: Double, idleBits: Int, lostSlots: Int)
    }
    private var mode = Mode.hunting
    /// The segment count at which ``advance(_:)`` next has something to do.
    private var nextDue = 0
    /// Set while a character on the clock is tried before the wide search's data is in.
    private var fastOnly = false
    private var needMore = false
    private var huntEnd: Int
    private var anchorScale = 1.0
    private var anchorPower = 0.0
    private var charactersOnClock = 0
    private var markTracker = TonePhaseTracker()
    private var spaceTracker = TonePhaseTracker()
    private var lastCharacterEnd = -Double.infinity

    /// Samples consumed so far.
    public private(set) var samplesConsumed: Int64 = 0

    public init(_ configuration: DemodulatorConfiguration) throws(ModemConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        sampleRate = configuration.sampleRate
        let samplesPerBit = configuration.sampleRate / configuration.profile.baud
        segmentLength = max(1, Int(samplesPerBit / 6))
        segmentsPerBit = samplesPerBit / Double(segmentLength)
        window = max(2, Int(segmentsPerBit.rounded()))
        frameBits = configuration.format.bitsPerFrame
        stopBits = configuration.format.stopBits
        lookaheadSegments = Int((Double(frameBits) * segmentsPerBit * (1 + configuration.baudTolerance)).rounded(.up)) + 3

        mixer = ToneMixer(mark: configuration.profile.mark, space: configuration.profile.space,
                          sampleRate: configuration.sampleRate, segmentLength: segmentLength)
        delay = window / 2
        correctionPosition = Self.positionBehind(0, by: delay, period: mixer.segmentsPerPeriod)
        inverseWindowSamples = 1 / Double(window * segmentLength)
        var rawSize = 8
        while rawSize < 2 * delay + 4 { rawSize <<= 1 }
        rawMask = rawSize - 1

        let span = Int(Double(frameBits + 4) * segmentsPerBit * (1 + configuration.baudTolerance)) + 2 * window + 16
        var size = 64
        while size < 2 * span { size <<= 1 }
        storage = DemodulatorStorage(rawCount: rawSize, ringCount: 6 * size, measureCount: frameBits)
        ringMask = size - 1
        huntEnd = window
    }

    /// True while the demodulator follows a sender's bit clock inside a burst (it has
    /// decoded at least one character of it); false while it hunts in silence or noise or
    /// checks a suspected start bit.
    public var isInBurst: Bool {
        if case .following = mode { return true }
        return false
    }

    /// Moves the correlators to new mark and space frequencies (an off-frequency sender,
    /// measured), keeping the stream's time base and everything else.
    ///
    /// Call it between bursts (``isInBurst`` false): segments already mixed at the old
    /// frequencies stay in the history, and a character straddling the change would be
    /// scored across both. Throws, changing nothing, for tones the sample rate cannot carry.
    public mutating func retune(mark: Double, space: Double) throws(ModemConfigurationError) {
        var profile = configuration.profile
        profile.mark = mark
        profile.space = space
        try profile.validate(sampleRate: configuration.sampleRate)
        configuration.profile = profile
        // The new period starts afresh: the phase reference jumps, which is harmless between
        // bursts (the phase trackers restart too). The few raw segments still awaiting
        // their high-pass are corrected with the new tones' sums: a negligible error that
        // only a DC offset could make visible, one bit long.
        mixer = ToneMixer(mark: mark, space: space, sampleRate: sampleRate, segmentLength: segmentLength)
        // A partial segment keeps its samples (the time base must not move) and finishes
        // against the new table.
        mixerPosition = 0
        correctionPosition = Self.positionBehind(0, by: delay, period: mixer.segmentsPerPeriod)
        markTracker.reset()
        spaceTracker.reset()
    }

    /// Forgets all signal history, as if newly created (counters included).
    public mutating func reset() {
        self = try! FSKDemodulator(configuration)
    }

    /// Demodulates `samples` and appends what it found to `events`.
    ///
    /// A character is reported once about one bit of signal after its stop bit has been
    /// seen (the search needs to see the whole character at every candidate alignment).
    /// Chunks may have any length, including zero; a segment split across calls is
    /// finished by the next one.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, into events: inout [DemodulatorEvent]) {
        guard let base = samples.baseAddress else { return }
        let n = samples.count
        let b = segmentLength
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let scratch = storage.mixed
        var i = 0
        let period = mixer.segmentsPerPeriod
        if fill > 0 {
            // The segment the previous call left partial, in the same order of operations as
            // a whole one, so chunking never changes a result.
            let take = min(b - fill, n)
            Self.mixPartial(base, take, mixer.table + mixerPosition * b + fill, &acc)
            fill += take
            i = take
            guard fill == b else {
                samplesConsumed += Int64(n)
                return
            }
            fill = 0
            scratch[0] = acc
            acc = MixedSegment()
            mixerPosition = mixerPosition + 1 == period ? 0 : mixerPosition + 1
            completeSegments(scratch, 1, &events)
        }
        // Two passes over blocks of whole segments: a tight mixer with no state to carry,
        // then the segment pipeline with its state in registers.
        while n - i >= b {
            let count = min((n - i) / b, storage.mixedCapacity)
            mixerPosition = Self.mixWhole(base + i, count, b, mixer, from: mixerPosition, into: scratch)
            completeSegments(scratch, count, &events)
            i += count * b
        }
        if i < n {
            Self.mixPartial(base + i, n - i, mixer.table + mixerPosition * b, &acc)
            fill = n - i
        }
        samplesConsumed += Int64(n)
    }

    /// One sample into a segment's sums. Clips to +-4 and reads NaN as silence in one select
    /// (NaN fails both comparisons), so segments can never hold a non-finite value.
    @inline(__always)
    private static func mix(_ u: Float, _ tone: SIMD4<Float>, _ tones: inout SIMD4<Float>, _ sx: inout Float, _ sxx: inout Float) {
        let v: Float = u >= -4 && u <= 4 ? u : (u > 4 ? 4 : (u < -4 ? -4 : 0))
        tones += v * tone
        sx += v
        sxx += v * v
    }

    /// `count` samples into the partial segment `segment`, against table entries from `tp`.
    @inline(__always)
    private static func mixPartial(_ x: UnsafePointer<Float>, _ count: Int, _ tp: UnsafePointer<SIMD4<Float>>, _ segment: inout MixedSegment) {
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
    private static func mixWhole(_ x: UnsafePointer<Float>, _ count: Int, _ b: Int, _ mixer: ToneMixer,
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
    private static func needsClipping(_ x: UnsafePointer<Float>, _ count: Int) -> Bool {
        var outside = SIMDMask<SIMD4<Int32>>(repeating: false)
        var i = 0
        let raw = UnsafeRawPointer(x)
        while i &+ 4 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
            // NaN fails the comparison, so it counts as outside.
            outside .|= .!((v .>= -4) .& (v .<= 4))
            i &+= 4
        }
        while i < count {
            if !(abs(x[i]) <= 4) { return true }
            i &+= 1
        }
        return any(outside)
    }

    /// The segment `distance` places before `position` in a period of `period` segments.
    private static func positionBehind(_ position: Int, by distance: Int, period: Int) -> Int {
        ((position - distance) % period + period) % period
    }

    /// The mixer's raw output for one segment of ``segmentLength`` samples: the four tone
    /// products (cos and -sin of mark, then of space) against the stream's phase reference,
    /// the sum and the sum of squares. See ``mixSegments(_:into:)``.
    public struct MixedSegment: Sendable, Equatable {
        public var tones: SIMD4<Float>
        public var sum: Float
        public var sumOfSquares: Float
        public init(tones: SIMD4<Float> = .zero, sum: Float = 0, sumOfSquares: Float = 0) {
            self.tones = tones
            self.sum = sum
            self.sumOfSquares = sumOfSquares
        }
    }

    /// Mixes whole segments of `samples` (which must be the samples that follow what this
    /// demodulator has consumed, starting on a segment boundary) into `segments`, without
    /// touching the demodulator's state; returns the number of segments written (limited by
    /// both buffers; a trailing partial segment is ignored).
    ///
    /// With ``process(mixed:into:)`` this splits ``process(_:into:)`` into its two halves, so
    /// the deframing (high-pass, running sums, start-bit search, bit decisions) can be
    /// measured alone. Samples are clipped and NaN read as silence, as in `process`.
    public func mixSegments(_ samples: UnsafeBufferPointer<Float>, into segments: UnsafeMutableBufferPointer<MixedSegment>) -> Int {
        let b = segmentLength
        let count = min(samples.count / b, segments.count)
        guard count > 0, let x = samples.baseAddress, let out = segments.baseAddress else { return 0 }
        _ = Self.mixWhole(x, count, b, mixer, from: mixerPosition, into: out)
        return count
    }

    /// Runs everything after the mixer on segments from ``mixSegments(_:into:)``, exactly as
    /// ``process(_:into:)`` would on the samples they came from (which must be the samples
    /// that follow what this demodulator has consumed, with no partial segment pending).
    public mutating func process(mixed segments: UnsafeBufferPointer<MixedSegment>, into events: inout [DemodulatorEvent]) {
        precondition(fill == 0, "process(mixed:) needs the demodulator on a segment boundary")
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        if let base = segments.baseAddress { completeSegments(base, segments.count, &events) }
        mixerPosition = (mixerPosition + segments.count) % mixer.segmentsPerPeriod
        samplesConsumed += Int64(segments.count * segmentLength)
    }

    /// Feeds enough silence to resolve a character still being searched, then returns.
    /// Call at the end of a stream; the demodulator can keep going afterwards.
    public mutating func flush(into events: inout [DemodulatorEvent]) {
        let zeros = [Float](repeating: 0, count: segmentLength * 64)
        let needed = Int(Double(frameBits + 3) * segmentsPerBit * (1 + configuration.baudTolerance)) + window + delay + 4
        var fed = 0
        let consumed = samplesConsumed
        while fed < needed {
            zeros.withUnsafeBufferPointer { process($0, into: &events) }
            fed += 64
        }
        samplesConsumed = consumed  // the padding is not input
    }

    // MARK: - Segments

    /// Runs mixed segments through the high-pass and into the prefix ring, calling the
    /// search whenever it is due.
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
    private mutating func completeSegments(_ mixed: UnsafePointer<MixedSegment>, _ count: Int, _ events: inout [DemodulatorEvent]) {
        let q = storage.raw, ring = storage.ring
        let rawMask = self.rawMask, ringMask = self.ringMask, d = delay, window = self.window
        let b = Double(segmentLength), inverseWindow = inverseWindowSamples
        let sums = mixer.segmentSums, period = mixer.segmentsPerPeriod
        let lowBack = window - 1 - d
        var r = rawCount, px = rawPrefixX, seg = segments, position = correctionPosition
        var p = prefix
        var i = 0
        while i < count {
            if r < d {
                // Warm-up: store only.
                let segment = mixed[i]
                let x = Double(segment.sum)
                q[r & rawMask] = RawSegment(tones: SIMD4<Double>(segment.tones), x: x, xx: Double(segment.sumOfSquares), prefixX: px)
                position = position + 1 == period ? 0 : position + 1
                px += x
                r += 1
                i += 1
            } else {
                // From here on every raw segment completes one corrected segment, so the
                // counters move together and the stopping points are known in advance.
                let run = min(count - i, max(nextDue - seg, 1), 0x10000 - (seg & 0xFFFF), 0x10000 - (r & 0xFFFF))
                for _ in 0..<run {
                    let segment = mixed[i]
                    i &+= 1
                    // Finite by construction: samples are clipped and NaN is zeroed as they are mixed.
                    let x = Double(segment.sum)
                    q[r & rawMask] = RawSegment(tones: SIMD4<Double>(segment.tones), x: x, xx: Double(segment.sumOfSquares), prefixX: px)
                    let k = r &- d
                    let lo = max(0, k &- lowBack)
                    let count = r &+ 1 &- lo
                    let mean = (px + x - q[lo & rawMask].prefixX) * (count == window ? inverseWindow : 1 / (Double(count) * b))
                    let c = q[k & rawMask]
                    p.tones += c.tones - mean * sums[position]
                    p.x += c.x - mean * b
                    p.xx += max(c.xx - 2 * mean * c.x + b * mean * mean, 0)
                    seg &+= 1
                    let o = 6 &* (seg & ringMask)
                    ring[o] = p.tones[0]; ring[o &+ 1] = p.tones[1]; ring[o &+ 2] = p.tones[2]
                    ring[o &+ 3] = p.tones[3]; ring[o &+ 4] = p.x; ring[o &+ 5] = p.xx
                    position = position &+ 1 == period ? 0 : position &+ 1
                    px += x
                    r &+= 1
                }
                if seg & 0xFFFF == 0 { Self.rebase(ring, count: storage.ringCount, oldest: 6 * ((seg - ringMask) & ringMask), &p) }
            }
            if r & 0xFFFF == 0 { Self.rebaseRaw(q, count: storage.rawCount, &px) }
            // The state machine says when it next has work; between, segments only fill the
            // ring.
            if seg >= nextDue {
                (rawCount, rawPrefixX, segments, prefix, correctionPosition) = (r, px, seg, p, position)
                advance(&events)
            }
        }
        (rawCount, rawPrefixX, segments, prefix, correctionPosition) = (r, px, seg, p, position)
    }

    /// The raw prefix of x only ever enters as a difference within the raw ring.
    private static func rebaseRaw(_ q: UnsafeMutablePointer<RawSegment>, count: Int, _ rawPrefixX: inout Double) {
        let base = rawPrefixX
        for slot in 0..<count { q[slot].prefixX -= base }
        rawPrefixX = 0
    }

    /// Keeps prefix sums small so long streams lose no precision: only differences inside
    /// the ring are ever used, so subtracting a common base changes nothing else.
    private static func rebase(_ r: UnsafeMutablePointer<Double>, count: Int, oldest: Int, _ prefix: inout PrefixSums) {
        let base = (r[oldest], r[oldest + 1], r[oldest + 2], r[oldest + 3], r[oldest + 4], r[oldest + 5])
        for slot in stride(from: 0, to: count, by: 6) {
            r[slot] -= base.0; r[slot + 1] -= base.1; r[slot + 2] -= base.2
            r[slot + 3] -= base.3; r[slot + 4] -= base.4; r[slot + 5] -= base.5
        }
        prefix.tones -= SIMD4(base.0, base.1, base.2, base.3)
        prefix.x -= base.4
        prefix.xx -= base.5
    }

    /// Sums over segments [lo, hi): mark, space (complex), sum x, sum x^2.
    @inline(__always)
    private func windowSums(_ lo: Int, _ hi: Int) -> Window {
        do {
            let r = storage.ring
            let a = 6 * (lo & ringMask), b = 6 * (hi & ringMask)
            return Window(mr: r[b] - r[a], mi: r[b + 1] - r[a + 1], sr: r[b + 2] - r[a + 2],
                          si: r[b + 3] - r[a + 3], x: r[b + 4] - r[a + 4], xx: r[b + 5] - r[a + 5],
                          samples: Double((hi - lo) * segmentLength))
        }
    }

    // MARK: - Search

    /// Segments a whole character spans at the slowest rate searched, plus margin.
    private var lookahead: Int { lookaheadSegments }

    private mutating func advance(_ events: inout [DemodulatorEvent]) {
        while true {
            switch mode {
            case .hunting:
                // Windows are tested in order whenever the state machine runs, so testing
                // them a bit's worth at a time decides exactly the same, with fewer calls.
                guard huntEnd <= segments else { nextDue = huntEnd + window - 1; return }
                if huntEnd - window < segments - ringMask { huntEnd = segments - ringMask + window }
                if triggers(at: huntEnd) { mode = .triggered(huntEnd) } else { huntEnd += 1 }
            case .triggered(let end):
                guard segments >= end + lookahead else { nextDue = end + lookahead; return }
                let outcome = search(lo: Double(end - window - 1), hi: Double(end), grid: nil, &events)
                switch outcome {
                case .accepted(let next):
                    mode = .following(expect: next, idleBits: 0, lostSlots: 0)
                case .framingError(let a), .rejected(let a):
                    huntEnd = max(end + 1, roundToInt(a + Double(window) / 2) + window)
                    mode = .hunting
                case .needMore:
                    preconditionFailure("only the clock's fast path asks for more data")
                }
            case .following(let e, let idle, let lost):
                // The clock's own candidates need only the character plus a couple of
                // segments; the wide search needs half a bit more at the slowest rate. Try the
                // first as soon as its data is in (a bit sooner on stdout, live), and wait for
                // the rest only when it does not settle the character.
                let full = Int(e + Double(window) / 2) + lookahead + 2
                let fast = min(full, Int(e + 2 + Double(frameBits) * segmentsPerBit * anchorScale) + 1)
                guard segments >= fast else { nextDue = fast; return }
                fastOnly = segments < full
                needMore = false
                follow(expect: e, idleBits: idle, lostSlots: lost, &events)
                fastOnly = false
                if needMore { nextDue = full; return }
            }
        }
    }

    /// Inside a burst: the next character should start on the previous one's bit clock,
    /// after any number of idle mark bits. Looking there directly (instead of waiting for a
    /// trigger) keeps weak back-to-back characters aligned; anything else ends the burst.
    private mutating func follow(expect e: Double, idleBits: Int, lostSlots: Int, _ events: inout [DemodulatorEvent]) {
        let step = segmentsPerBit * anchorScale
        let lo = roundToInt(e), hi = roundToInt(e + step)
        let w = windowSums(lo, hi)
        let g = 2 / w.samples
        let em = w.markEnergy * g, es = w.spaceEnergy * g
        let noisePerBin = max(w.detrendedEnergy - max(em, es), 0) * g
        let power = abs(em - es) / w.samples
        let atLevel = power > anchorPower * 0.1 && power < anchorPower * 10
        let idleLike = em > es && atLevel && em - es > 1.5 * noisePerBin
        // Straight after a character the next thing is usually a start bit: only a window
        // that is clearly mark counts as idle there, so a start bit that noise tipped
        // towards mark still gets the character search (and its coherent decision) instead
        // of the character's leading 1s being taken for idle bits.
        let clearlyIdle = idleLike && (idleBits > 0 || em > 4 * es)
        if !clearlyIdle && (es > em || idleBits == 0) {
            let half = Double(window) / 2
            // Look half a bit around the clock: senders restart their clock after idle bits
            // (Arduino writes) or slip it (the firmware's glitch every 64 bytes).
            switch search(lo: e - half, hi: e + half, grid: e, &events) {
            case .needMore:
                needMore = true
                return
            case .accepted(let next):
                mode = .following(expect: next, idleBits: 0, lostSlots: 0)
                return
            case .framingError(let a) where abs(a - e) <= 3 && lostSlots == 0:
                // Most likely a bit error on the clock we trust: stay on it, once. A second
                // one in a row means the clock itself is wrong.
                mode = .following(expect: a + Double(frameBits) * step, idleBits: 0, lostSlots: 1)
                return
            case .rejected where idleLike && idleBits < maxIdleBits:
                // Not a character after all: the mark-leaning window was an idle bit.
                mode = .following(expect: e + step, idleBits: idleBits + 1, lostSlots: lostSlots)
                return
            case .rejected where idleBits == 0 && lostSlots < 2 && w.detrendedEnergy > anchorPower * w.samples * 0.3:
                // A character on the clock too weak to trust: lose it, keep the clock. Going
                // back to hunting in the middle of a burst risks locking onto a data bit.
                mode = .following(expect: e + Double(frameBits) * step, idleBits: 0, lostSlots: lostSlots + 1)
                return
            default:
                break
            }
        } else if idleLike && idleBits < maxIdleBits {
            mode = .following(expect: e + step, idleBits: idleBits + 1, lostSlots: lostSlots)
            return
        } else if idleBits == 0 && lostSlots < 2 && w.detrendedEnergy > anchorPower * w.samples * 0.3 {
            // Right after a character, a window that is neither a start bit nor a clean idle
            // bit, with the burst's energy still there, is most likely a start bit flipped by
            // noise: that character is lost, but the clock is not. Skip its slot.
            mode = .following(expect: e + Double(frameBits) * step, idleBits: 0, lostSlots: lostSlots + 1)
            return
        }
        // The burst has ended (or changed clock): hunt from here, covering a start bit that
        // began up to a bit before the expected position.
        huntEnd = max(roundToInt(e), window)
        mode = .hunting
    }

    /// Idle mark bits followed on the bit clock before the burst is considered over (the
    /// phone apps send 50 bits of preamble; Arduino writes up to 49).
    private var maxIdleBits: Int { 64 }

    /// True when the one-bit window ending at `end` looks like the start of a start bit.
    private func triggers(at end: Int) -> Bool {
        let w = windowSums(end - window, end)
        let g = 2 / w.samples
        let em = w.markEnergy * g, es = w.spaceEnergy * g
        guard es > em else { return false }
        let total = w.detrendedEnergy
        guard total > w.samples * 1e-11 else { return false }  // digital silence
        let noisePerBin = max(total - es, 0) * g
        return es - em > 4 * noisePerBin
    }

    /// Rounds the bit boundaries (segments) of a character starting at `a` with bits `step`
    /// long into the boundary scratch, for ``score(offset:)``. A search scores many
    /// alignments a whole number of segments apart: they share these boundaries.
    private func setBoundaries(start a: Double, step: Double) {
        let bounds = storage.boundaries
        for k in 0...frameBits { bounds[k] = roundToInt(a + Double(k) * step) }
    }

    /// How well a character fits the alignment `offset` segments after the boundaries last
    /// set: the start bit must be space, stop bits mark, data bits score how clearly they
    /// decide (energy difference per sample).
    private func score(offset: Int) -> Double {
        let bounds = storage.boundaries, ring = storage.ring, mask = ringMask
        @inline(__always) func tones(_ position: Int) -> SIMD4<Double> {
            UnsafeRawPointer(ring + 6 * (position & mask)).loadUnaligned(as: SIMD4<Double>.self)
        }
        var score = 0.0
        var previous = tones(bounds[0] + offset)
        for k in 0..<frameBits {
            let next = tones(bounds[k + 1] + offset)
            let w = next - previous
            let e = w * w
            let d = ((e[0] + e[1]) - (e[2] + e[3])) / Double((bounds[k + 1] - bounds[k]) * segmentLength)
            if k == 0 {
                score -= d
            } else if k >= frameBits - stopBits {
                score += d
            } else {
                score += abs(d)
            }
            previous = next
        }
        return score
    }

    /// ``score(offset:)`` at offsets -1, 0 and 1 in one pass: the three alignments read
    /// neighbouring ring slots at every boundary (the same arithmetic, in the same order).
    private func scoresAround() -> (Double, Double, Double) {
        let bounds = storage.boundaries, ring = storage.ring, mask = ringMask
        @inline(__always) func tones(_ position: Int) -> SIMD4<Double> {
            UnsafeRawPointer(ring + 6 * (position & mask)).loadUnaligned(as: SIMD4<Double>.self)
        }
        @inline(__always) func difference(_ w: SIMD4<Double>, _ samples: Double) -> Double {
            let e = w * w
            return ((e[0] + e[1]) - (e[2] + e[3])) / samples
        }
        var scores = (0.0, 0.0, 0.0)
        var previous = (tones(bounds[0] - 1), tones(bounds[0]), tones(bounds[0] + 1))
        for k in 0..<frameBits {
            let h = bounds[k + 1]
            let next = (tones(h - 1), tones(h), tones(h + 1))
            let samples = Double((h - bounds[k]) * segmentLength)
            let d = (difference(next.0 - previous.0, samples), difference(next.1 - previous.1, samples),
                     difference(next.2 - previous.2, samples))
            if k == 0 {
                scores.0 -= d.0; scores.1 -= d.1; scores.2 -= d.2
            } else if k >= frameBits - stopBits {
                scores.0 += d.0; scores.1 += d.1; scores.2 += d.2
            } else {
                scores.0 += abs(d.0); scores.1 += abs(d.1); scores.2 += abs(d.2)
            }
            previous = next
        }
        return scores
    }

    /// Scores every start time in [lo, hi] (and bit rates around the nominal or tracked
    /// one), decodes the best, and reports what happened. With `grid`, alignments within
    /// a segment of it win unless the signal is clearly better elsewhere.
    private mutating func search(lo: Double, hi: Double, grid: Double?, _ events: inout [DemodulatorEvent]) -> Outcome {
        let nominal = segmentsPerBit
        let tol = configuration.baudTolerance
        let center = grid == nil ? 1.0 : anchorScale
        // On the burst's clock, a character scoring near what the burst's level predicts
        // needs no wider search (the common case, and a 4x saving); the wide search remains
        // for slips, restarted clocks and weak characters.
        var gridBest = (a: 0.0, step: nominal * center, score: -Double.infinity)
        if let g = grid {
            setBoundaries(start: g, step: gridBest.step)
            var bestOffset = 0
            let around = scoresAround()
            if around.0 > gridBest.score { gridBest = (g - 1, gridBest.step, around.0); bestOffset = -1 }
            if around.1 > gridBest.score { gridBest = (g, gridBest.step, around.1); bestOffset = 0 }
            if around.2 > gridBest.score { gridBest = (g + 1, gridBest.step, around.2); bestOffset = 1 }
            // Take the fast path only if the clock is not drifting off: when the best is at
            // an edge, the next position outward must not score higher.
            var central = true
            if bestOffset != 0 {
                central = score(offset: 2 * bestOffset) <= gridBest.score
            }
            let expected = Double(frameBits) * anchorPower * nominal * Double(segmentLength) / 2
            if central && gridBest.score >= 0.75 * expected {
                return decide(start: gridBest.a, step: gridBest.step, grid: g, &events)
            }
            if fastOnly { return .needMore }
            for offset in [-3, -2, 2, 3] {
                let s = score(offset: offset)
                if s > gridBest.score { gridBest = (g + Double(offset), gridBest.step, s) }
            }
        }
        var best = (a: lo, step: nominal * center, score: -Double.infinity)
        setBoundaries(start: lo, step: best.step)
        var offset = 0
        while lo + Double(offset) <= hi {
            let s = score(offset: offset)
            if s > best.score { best = (lo + Double(offset), best.step, s) }
            offset += 1
        }
        // Off the clock: refine the winner over bit rates within the tolerance (whole
        // segments only: window edges round to segments, so half steps add nothing).
        // scale(i) = scaleCenter * (1 + i * scaleStep), i in -spread...spread: a tuple,
        // not an array literal, which would malloc on every search.
        let (scaleCenter, scaleStep, spread) = grid == nil ? (1.0, tol / 2, 2) : (center, tol / 4, 1)
        let coarse = best.a
        let atCenter = best
        for i in -spread...spread {
            let scale = scaleCenter * (1 + Double(i) * scaleStep)
            setBoundaries(start: coarse, step: nominal * scale)
            let around = scoresAround()
            if around.0 > best.score { best = (coarse - 1, nominal * scale, around.0) }
            if around.1 > best.score { best = (coarse, nominal * scale, around.1) }
            if around.2 > best.score { best = (coarse + 1, nominal * scale, around.2) }
        }
        // Many rates fit one clean character almost equally well: move off the expected
        // rate only when the character clearly says so.
        if best.step != atCenter.step && best.score < 1.03 * atCenter.score {
            best = atCenter
            setBoundaries(start: coarse, step: atCenter.step)
            for offset in [-1, 1] {
                let s = score(offset: offset)
                if s > best.score { best = (coarse + Double(offset), atCenter.step, s) }
            }
        }
        var onGrid = false
        if grid != nil {
            // On the burst's clock only the phase is searched, near the expected start.
            if gridBest.score >= 0.85 * best.score {
                best = gridBest
                onGrid = true
            }
        }
        return decide(start: best.a, step: best.step, grid: onGrid ? grid : nil, &events)
    }

    /// Feeds an accepted character's bits to the two phase trackers.
    private mutating func learnPhases(_ m: UnsafeBufferPointer<BitMeasure>, continuing: Bool) {
        withUnsafeTemporaryAllocation(of: (re: Double, im: Double).self, capacity: frameBits) { z in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: frameBits) { c in
                func learn(_ tone: Bool) {
                    var count = 0
                    for bit in m where bit.isMark == tone {
                        z[count] = tone ? (bit.window.mr, bit.window.mi) : (bit.window.sr, bit.window.si)
                        c[count] = bit.center
                        count += 1
                    }
                    let zs = UnsafeBufferPointer(rebasing: z[0..<count]), cs = UnsafeBufferPointer(rebasing: c[0..<count])
                    // Seeding the drift from the measured tone would plant that estimate's
                    // bias; whole-cycle senders need none, and others stay non-coherent.
                    if tone {
                        markTracker.update(z: zs, centers: cs, segmentsPerBit: segmentsPerBit, seedDrift: 0, continuing: continuing)
                    } else {
                        spaceTracker.update(z: zs, centers: cs, segmentsPerBit: segmentsPerBit, seedDrift: 0, continuing: continuing)
                    }
                }
                learn(true)
                learn(false)
            }
        }
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

    private mutating func decide(start a: Double, step: Double, grid: Double?,
                                 _ events: inout [DemodulatorEvent]) -> Outcome {
        let inBurst = grid != nil
        let n = frameBits
        // Pass 1: each bit's correlations, decided coherently when the burst's tone phases
        // are known and by energy otherwise.
        // Scratch preallocated in storage: frameBits BitMeasures exceed the 1 KB that
        // withUnsafeTemporaryAllocation keeps on the stack, so it would malloc per character.
        let m = UnsafeMutableBufferPointer(start: storage.measures, count: n)
        do {
            for k in 0..<n {
                let lo = roundToInt(a + Double(k) * step)
                let hi = roundToInt(a + Double(k + 1) * step)
                let w = windowSums(lo, hi)
                let g = 2 / w.samples
                m[k] = BitMeasure(lo: lo, hi: hi, window: w, em: w.markEnergy * g, es: w.spaceEnergy * g,
                                  center: Double(lo + hi) / 2, isMark: w.markEnergy > w.spaceEnergy)
            }
            let coherent = inBurst && markTracker.locked && spaceTracker.locked
            if coherent {
                var contradicted = false
                // Predictions at the first bit, then one rotation per bit (bits are evenly
                // spaced to within a rounded segment, far below the drift's resolution).
                var pm = markTracker.predicted(at: m[0].center, segmentsPerBit: segmentsPerBit)
                var ps = spaceTracker.predicted(at: m[0].center, segmentsPerBit: segmentsPerBit)
                let bitLength = n > 1 ? (m[n - 1].center - m[0].center) / Double(n - 1) : segmentsPerBit
                let rm = markTracker.rotation(over: bitLength, segmentsPerBit: segmentsPerBit)
                let rs = spaceTracker.rotation(over: bitLength, segmentsPerBit: segmentsPerBit)
                for k in 0..<n {
                    defer {
                        pm = (pm.re * rm.re - pm.im * rm.im, pm.re * rm.im + pm.im * rm.re)
                        ps = (ps.re * rs.re - ps.im * rs.im, ps.re * rs.im + ps.im * rs.re)
                    }
                    let w = m[k].window
                    let inPhase = w.mr * pm.re + w.mi * pm.im > w.sr * ps.re + w.si * ps.im
                    // The phase only decides what the energies leave in doubt; an energy
                    // verdict this clear that disagrees proves the phase reference wrong.
                    let clarity = abs(m[k].em - m[k].es) / (m[k].em + m[k].es)
                    if clarity > 0.6 {
                        contradicted = contradicted || inPhase != m[k].isMark
                    } else {
                        m[k].isMark = inPhase
                    }
                }
                if contradicted {
                    markTracker.reset()
                    spaceTracker.reset()
                    for k in 0..<n { m[k].isMark = m[k].window.markEnergy > m[k].window.spaceEnergy }
                }
            }
        }
        return decideBits(start: a, step: step, grid: grid, measures: UnsafeBufferPointer(m), &events)
    }

    /// One bit of a candidate character.
    struct BitMeasure {
        var lo: Int, hi: Int
        var window: Window
        var em: Double, es: Double
        var center: Double
        var isMark: Bool
    }

    private mutating func decideBits(start a: Double, step: Double, grid: Double?, measures m: UnsafeBufferPointer<BitMeasure>,
                                     _ events: inout [DemodulatorEvent]) -> Outcome {
        let inBurst = grid != nil
        let measureTones = !inBurst || charactersOnClock % 8 == 0
        var bits: UInt32 = 0
        var signal = 0.0, total = 0.0, samples = 0.0
        var startIsSpace = false, stopsAreMark = true
        var markPhase = (re: 0.0, im: 0.0), spacePhase = (re: 0.0, im: 0.0)
        var markLag = 0.0, spaceLag = 0.0, markHalves = 0, spaceHalves = 0
        var startEnergy = 0.0, weakest = Double.infinity, winning = 0.0
        for k in 0..<frameBits {
            let (lo, hi, w) = (m[k].lo, m[k].hi, m[k].window)
            let em = m[k].em, es = m[k].es
            let isMark = m[k].isMark
            if isMark { bits |= 1 << UInt32(k) }
            if k == 0 { startIsSpace = !isMark }
            if k >= frameBits - stopBits && !isMark { stopsAreMark = false }
            signal += abs(em - es)
            let e = max(em, es) / w.samples
            winning += e
            weakest = min(weakest, e)
            if k == 0 { startEnergy = e }
            total += w.detrendedEnergy
            samples += w.samples
            // Phase advance between the two halves of the bit on the winning tone. Every
            // burst start is measured (the plausibility test needs it); inside a burst every
            // eighth character is enough for the burst's report.
            let mid = (lo + hi) / 2
            if measureTones && mid > lo && hi > mid {
                let h1 = windowSums(lo, mid), h2 = windowSums(mid, hi)
                let lag = Double((hi - lo) * segmentLength) / 2
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
            let lo = roundToInt(a - step), hi = roundToInt(a)
            if hi > lo {
                let w = windowSums(lo, hi)
                followsSpace = w.spaceEnergy > w.markEnergy && w.spaceEnergy * 2 / (w.samples * w.samples) > 0.3 * meanEnergy
            }
        }
        guard total > samples * 1e-11, startIsSpace, !followsSpace,
              inBurst ? startEnergy >= 0.1 * meanEnergy : (startEnergy >= 0.3 * meanEnergy && weakest >= 0.1 * meanEnergy) else {
            return .rejected(a)
        }
        func measured(_ nominal: Double, _ phase: (re: Double, im: Double), _ lag: Double, _ count: Int) -> Double {
            guard lag > 0, count > 0 else { return .nan }
            return nominal + sampleRate * _atan2(phase.im, phase.re) / (2 * Double.pi * (lag / Double(count)))
        }
        // The burst's bit clock only vouches for a character at the burst's level: the tail
        // of a recording 60 dB down is not the same sender.
        let power = signal / samples
        let atLevel = power > anchorPower * 0.1 && power < anchorPower * 10
        let grid = atLevel ? grid : nil
        let onGrid = grid != nil
        // A character at the level of a burst that ended moments ago (a lost clock, a
        // restarted sender) also gets the in-burst squelch.
        let resuming = atLevel && a - lastCharacterEnd < 3 * Double(frameBits) * segmentsPerBit
        let noise = max(total - signal, total * 1e-6)
        let ebN0 = decibels(power: signal * (samples / Double(frameBits)) / (2 * noise))
        let squelch = configuration.squelch - (onGrid || resuming ? 4 : 0)
        guard ebN0 >= squelch else {
            return .rejected(a)
        }
        let markHz = measured(configuration.profile.mark, markPhase, markLag, markHalves)
        let spaceHz = measured(configuration.profile.space, spacePhase, spaceLag, spaceHalves)
        // A character that opens a burst must also be at the right frequencies: coloured
        // noise can fool the energy test, but its measured tones wander by hundreds of hertz.
        // Inside a burst the bit clock already vouches for it, and at low SNR the estimate
        // itself gets noisy.
        if !onGrid && !(tonesPlausible(markHz, configuration.profile.mark) && tonesPlausible(spaceHz, configuration.profile.space)) {
            return .rejected(a)
        }

        let format = configuration.format
        let value = UInt8(truncatingIfNeeded: (bits >> 1) & UInt32(format.valueMask))
        var kind = DemodulatorEvent.Kind.byte
        if !stopsAreMark {
            kind = .framingError
        } else if format.parity != .none {
            let parityBit = (bits >> UInt32(1 + format.dataBits)) & 1 == 1
            if parityBit != format.parityBit(for: value) { kind = .parityError }
        }
        let b = Double(segmentLength)
        let event = DemodulatorEvent(
            kind: kind, value: value,
            startSample: Int64((a * b).rounded()),
            endSample: Int64(((a + Double(frameBits) * step) * b).rounded()),
            signalPower: signal / samples, noisePower: (total - min(signal, total)) / samples, ebN0: ebN0,
            markFrequency: markHz, spaceFrequency: spaceHz)
        events.append(event)
        if kind == .framingError { return .framingError(a) }
        learnPhases(m, continuing: grid != nil)
        anchorPower = power
        lastCharacterEnd = a + Double(frameBits) * step
        if let g = grid {
            // On the burst's clock each character's timing error nudges the clock's phase
            // and rate (a second-order loop) instead of resetting them: at low SNR a single
            // character's best alignment wanders with the noise, the sender's clock does not.
            let tol = configuration.baudTolerance
            let error = a - g
            let span = Double(frameBits) * segmentsPerBit
            // Gear shifting: pull in fast while the clock is new (a sender 3 % off moves
            // 3.6 segments a character at 1225 baud), then settle to low-jitter gains.
            let young = charactersOnClock < 4
            charactersOnClock += 1
            anchorScale = min(max(anchorScale + (young ? 0.5 : 0.15) * error / span, 1 - tol), 1 + tol)
            return .accepted(next: g + (young ? 0.8 : 0.5) * error + span * anchorScale)
        }
        // A burst's clock starts at the nominal rate unless its first character clearly says
        // otherwise: one character's best-fitting rate is a coarse, noisy estimate, and the
        // loop above refines it within a few characters.
        let measured = step / segmentsPerBit
        anchorScale = measured
        charactersOnClock = 0
        return .accepted(next: a + Double(frameBits) * segmentsPerBit * anchorScale)
    }
}

extension FSKDemodulator {
    /// True when a measured tone (NaN when unmeasured) is within 4 % + 60 Hz of nominal,
    /// plus 1000 Hz divided by the samples per bit: room for +-3 % clock error, the iPhone
    /// app's 7300 Hz mark, and an estimate that coarsens as bits get shorter (half-bit
    /// windows of 4-5 samples at 2450 baud, 22.05 kHz). Tighter would lose real senders;
    /// looser lets a tone sweeping past the space frequency read as a row of zeros.
    private func tonesPlausible(_ measured: Double, _ nominal: Double) -> Bool {
        let samplesPerBit = configuration.sampleRate / configuration.profile.baud
        return measured.isNaN || abs(measured - nominal) <= 0.04 * nominal + 60 + 1000 / samplesPerBit
    }
}

/// Correlations and energies over one window of whole segments.
struct Window {
    var mr, mi, sr, si, x, xx: Double
    var samples: Double
    @inline(__always) var markEnergy: Double { mr * mr + mi * mi }
    @inline(__always) var spaceEnergy: Double { sr * sr + si * si }
    /// Energy with the window's mean removed (DC and slow hum do not count).
    @inline(__always) var detrendedEnergy: Double { max(xx - x * x / samples, 0) }
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
