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
    /// The configuration the demodulator was built from, which passed
    /// ``DemodulatorConfiguration/validate()``.
    public private(set) var configuration: DemodulatorConfiguration
    /// Samples per mixing segment: a sixth of a bit (``FSKTuning/segmentsPerBit``).
    public let segmentLength: Int
    /// Average segments per bit.
    public let segmentsPerBit: Double
    /// 1 / segmentsPerBit.
    let bitsPerSegment: Double
    let window: Int
    let frameBits: Int
    let stopBits: Int
    let lookaheadSegments: Int
    /// Samples per second the demodulator was built for.
    public let sampleRate: Double
    /// The squelch for a burst's first character and for the characters on its clock (4 dB
    /// lower), as the smallest Eb/N0 ratios whose ``Decibels/power(_:)`` reaches it: every
    /// candidate character is checked, and comparing ratios spares a logarithm each time
    /// with the same verdicts (`decibels` rises with its argument).
    let squelchRatio: Double
    let squelchRatioInBurst: Double

    /// Mixer, high-pass and the ring of running sums the searches read.
    var front: SegmentFrontEnd

    // Search state.
    enum Mode {
        /// Testing one-bit windows for a start bit; the next window ends at `huntEnd`.
        case hunting
        /// A start bit was suspected in the window ending here; waiting for the character.
        /// While `early`, a tentative search runs as soon as the character could be in.
        case triggered(Int, early: Bool)
        /// Inside a burst: the next character or idle bit is expected at this segment.
        case following(expect: Double, idleBits: Int, lostSlots: Int)
    }
    var mode = Mode.hunting
    /// Times the current first character's search range has moved on (``Outcome/later``).
    var rangeMoves = 0
    /// The segment count at which ``advance(_:)`` next has something to do.
    var nextDue = 0
    /// Set while a decision reads provisional ring slots
    /// (``SegmentFrontEnd/writeProvisionalTail()``), before the wide search's data is in:
    /// only an accepted character is final then; anything else waits for the final data.
    var tentative = false
    /// Ring slots a search may read: ``segments``, or more while ``tentative``.
    var ringEnd = 0
    var needMore = false
    var huntEnd: Int
    /// The burst's bit clock and level.
    var clock = BitClock()
    var markTracker = TonePhaseTracker()
    var spaceTracker = TonePhaseTracker()
    var confirmation: BurstConfirmation
    /// The burst's last back-to-back characters, for doubting its frame phase.
    var framePhase = FramePhaseHistory()
    /// The sample at which the frame phase last moved (-1: never): the framing errors
    /// before it were this reading's misframing, not evidence about the line.
    var framePhaseMovedAt: Int64 = -1
    /// The fraction of a steady tone's energy over one bit that the other tone's correlator
    /// reads (``toneLeakage(mark:space:samplesPerBit:sampleRate:)``): 0 for SoftModem's tones, 0.04 for
    /// Bell 202 and 0.17 for Bell 103, whose tones are closer than one bit rate apart.
    var toneLeakage: Double
    /// What a clean character's losing filter reads beyond that, at most
    /// (``cleanCrossTalk(configuration:segmentLength:window:span:toneLeakage:)``).
    var cleanCrossTalk: Double

    /// Samples consumed so far.
    public private(set) var samplesConsumed: Int64 = 0

    /// A demodulator for `configuration`, with all its memory allocated; throws what
    /// ``DemodulatorConfiguration/validate()`` throws.
    public init(_ configuration: DemodulatorConfiguration) throws(ModemConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        sampleRate = configuration.sampleRate
        let samplesPerBit = configuration.sampleRate / configuration.profile.baud
        segmentLength = max(1, Int(samplesPerBit / Double(FSKTuning.segmentsPerBit)))
        segmentsPerBit = samplesPerBit / Double(segmentLength)
        bitsPerSegment = 1 / segmentsPerBit
        window = max(2, Int(segmentsPerBit.rounded()))
        squelchRatio = Self.smallestRatio(reaching: configuration.squelch)
        squelchRatioInBurst = Self.smallestRatio(reaching: configuration.squelch - FSKTuning.inBurstSquelchRelief)
        frameBits = configuration.format.bitsPerFrame
        stopBits = configuration.format.stopBits
        lookaheadSegments =
            Int((Double(frameBits) * segmentsPerBit * (1 + configuration.baudTolerance)).rounded(.up)) + 3

        let span = Int(Double(frameBits + 4) * segmentsPerBit * (1 + configuration.baudTolerance)) + 2 * window + 16
        front = SegmentFrontEnd(
            mark: configuration.profile.mark, space: configuration.profile.space, sampleRate: configuration.sampleRate,
            segmentLength: segmentLength, window: window, span: span, frameBits: frameBits)
        huntEnd = window
        (toneLeakage, cleanCrossTalk) = Self.leakages(configuration, front: front)
        // The tone estimate's noise grows with the bit rate (shorter bits) and coarsens with
        // few samples per bit.
        confirmation = BurstConfirmation(
            required: FSKTuning.confirmationCharacters,
            spreadLimit: FSKTuning.confirmationSpreadPerBaud * configuration.profile.baud + FSKTuning.toneCoarseness
                / samplesPerBit,
            clearEbN0Ratio: Self.smallestRatio(reaching: FSKTuning.clearEbN0))
    }

    /// The smallest positive double whose ``Decibels/power(_:)`` is at least `level`
    /// (bisection over the bit patterns of positive doubles, which sort as their values
    /// do): 0 decibels reads 1, 10 reads 10. Infinity when no finite ratio gets there.
    static func smallestRatio(reaching level: Double) -> Double {
        func reaches(_ bits: UInt64) -> Bool { Decibels.power(Double(bitPattern: bits)) >= level }
        var lo: UInt64 = 0
        var hi = Double.greatestFiniteMagnitude.bitPattern
        guard reaches(hi) else { return .infinity }
        // Invariant: lo does not reach the level (0 reads -infinity), hi does.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if reaches(mid) { hi = mid } else { lo = mid }
        }
        return Double(bitPattern: hi)
    }

    /// True while the demodulator follows a sender's bit clock inside a burst it has
    /// confirmed as a modem (it has reported characters of it); false while it hunts in
    /// silence or noise, checks a suspected start bit, or holds the first characters of a
    /// burst that may yet prove to be speech or a tone (see ``BurstConfirmation``).
    public var isInBurst: Bool {
        if case .following = mode { return confirmation.confirmed }
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
        front.retune(mark: mark, space: space, sampleRate: sampleRate)
        (toneLeakage, cleanCrossTalk) = Self.leakages(configuration, front: front)
        // The phase reference jumps with the new mixer period: the trackers restart too.
        markTracker.reset()
        spaceTracker.reset()
    }

    /// Forgets all signal history, as if newly created (counters included).
    public mutating func reset() {
        self = try! FSKDemodulator(configuration)
    }

    /// Demodulates `samples` and appends what it found to `events`.
    ///
    /// A clean character is reported a third of a bit after its stop bit ends (two thirds
    /// for the first character of a burst); a weak or doubtful one waits until 2.2 bits
    /// after, when the search has seen it at every candidate alignment and the high-pass has
    /// the segments after it (``ModemEvent/decidedAt`` tells which). Silence, NaN and
    /// empty chunks produce nothing.
    /// Chunks may have any length, including zero; a segment split across calls is
    /// finished by the next one.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, into events: inout [ModemEvent]) {
        processSamples(samples, into: &events)
    }

    /// Demodulates 16-bit PCM samples (full scale 32768), exactly as ``process(_:into:)``
    /// would their float conversion (x / 32768), chunk by chunk and bit for bit, but
    /// faster: no conversion pass and no clipping check (16-bit samples are never out of
    /// range). Chunks of the two kinds may be mixed in one stream.
    public mutating func process(_ samples: UnsafeBufferPointer<Int16>, into events: inout [ModemEvent]) {
        processSamples(samples, into: &events)
    }

    @inline(__always)
    mutating func processSamples<S: MixerSample>(_ samples: UnsafeBufferPointer<S>, into events: inout [ModemEvent]) {
        guard let base = samples.baseAddress else { return }
        let n = samples.count
        let b = segmentLength
        front.makeUnique()
        let scratch = front.storage.mixed
        var i = 0
        if front.fill > 0 {
            // The segment the previous call left partial, in the same order of operations as
            // a whole one, so chunking never changes a result.
            i = front.continuePartial(base, n)
            guard front.fill == 0 else {
                samplesConsumed += Int64(n)
                return
            }
            completeSegments(scratch, 1, &events)
        }
        // Two passes over blocks of whole segments: a tight mixer with no state to carry,
        // then the segment pipeline with its state in registers.
        while n - i >= b {
            let count = front.mixWhole(base + i, n - i)
            completeSegments(scratch, count, &events)
            i += count * b
        }
        if i < n { front.startPartial(base + i, n - i) }
        samplesConsumed += Int64(n)
    }

    /// Runs mixed segments through the front end, and the state machine (``advance(_:)``)
    /// whenever it has work.
    @inline(__always)
    mutating func completeSegments(_ mixed: UnsafePointer<MixedSegment>, _ count: Int, _ events: inout [ModemEvent]) {
        var i = 0
        while i < count {
            i += front.append(mixed + i, count - i, until: nextDue)
            if front.segments >= nextDue { advance(&events) }
        }
    }

    // What the searches read of the front end, by the names they use.

    /// Corrected segments in the ring so far.
    var segments: Int { front.segments }
    /// The ring and the searches' scratch.
    var storage: DemodulatorStorage { front.storage }
    var ringMask: Int { front.ringMask }
    /// Raw segments in so far (the decision time of what is decided now).
    var rawCount: Int { front.rawCount }
    /// Segments the high-pass holds back.
    var delay: Int { front.delay }
    @inline(__always)
    func windowSums(_ lo: Int, _ hi: Int) -> Window { front.windowSums(lo, hi) }

    /// The mixer's raw output for one segment of ``segmentLength`` samples: the four tone
    /// products (cos and -sin of mark, then of space) against the stream's phase reference,
    /// the sum and the sum of squares. See ``mixSegments(_:into:)``.
    public struct MixedSegment: Sendable, Equatable {
        /// The four tone products as two partial sums (the segment's even and odd samples),
        /// added when read. Why not added by the mixer: left as one eight-lane value, the
        /// mixer's multiply-adds stay eight lanes wide; a sum of the halves at the end of its
        /// loop made the compiler split the whole loop into four-lane halves, a third more
        /// instructions. The sum is the same either way.
        var parts: SIMD8<Float>
        /// Cos and -sin of mark, then of space, summed over the segment.
        public var tones: SIMD4<Float> {
            get { parts.lowHalf + parts.highHalf }
            set { parts = SIMD8(lowHalf: newValue, highHalf: .zero) }
        }
        /// Sum of the segment's samples (full scale 1, clipped to +-4, NaN read as 0).
        public var sum: Float
        /// Sum of the squares of the same samples.
        public var sumOfSquares: Float
        /// A segment from its summed tone products, sum and sum of squares (all 0 by default).
        public init(tones: SIMD4<Float> = .zero, sum: Float = 0, sumOfSquares: Float = 0) {
            parts = SIMD8(lowHalf: tones, highHalf: .zero)
            self.sum = sum
            self.sumOfSquares = sumOfSquares
        }
        init(parts: SIMD8<Float>, sum: Float, sumOfSquares: Float) {
            self.parts = parts
            self.sum = sum
            self.sumOfSquares = sumOfSquares
        }
        /// Compares ``tones``, ``sum`` and ``sumOfSquares``, however the tone products are split
        /// between the segment's even and odd samples.
        public static func == (a: MixedSegment, b: MixedSegment) -> Bool {
            a.tones == b.tones && a.sum == b.sum && a.sumOfSquares == b.sumOfSquares
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
    public func mixSegments(
        _ samples: UnsafeBufferPointer<Float>, into segments: UnsafeMutableBufferPointer<MixedSegment>
    ) -> Int {
        let b = segmentLength
        let count = min(samples.count / b, segments.count)
        guard count > 0, let x = samples.baseAddress, let out = segments.baseAddress else { return 0 }
        front.mixAhead(x, count, into: out)
        return count
    }

    /// Runs everything after the mixer on segments from ``mixSegments(_:into:)``, exactly as
    /// ``process(_:into:)`` would on the samples they came from (which must be the samples
    /// that follow what this demodulator has consumed, with no partial segment pending).
    public mutating func process(mixed segments: UnsafeBufferPointer<MixedSegment>, into events: inout [ModemEvent]) {
        precondition(front.fill == 0, "process(mixed:) needs the demodulator on a segment boundary")
        front.makeUnique()
        if let base = segments.baseAddress { completeSegments(base, segments.count, &events) }
        front.skipMixer(segments.count)
        samplesConsumed += Int64(segments.count * segmentLength)
    }

    /// Feeds enough silence to resolve a character still being searched, then returns.
    /// Call at the end of a stream; the demodulator can keep going afterwards.
    public mutating func flush(into events: inout [ModemEvent]) {
        let zeros = [Float](repeating: 0, count: segmentLength * 64)
        let needed =
            Int(Double(frameBits + 3) * segmentsPerBit * (1 + configuration.baudTolerance)) + window + delay + 4
        var fed = 0
        let consumed = samplesConsumed
        let first = events.count
        while fed < needed {
            zeros.withUnsafeBufferPointer { process($0, into: &events) }
            fed += 64
        }
        samplesConsumed = consumed  // the padding is not input
        // A character whose start bit is not all in the input is the line falling silent (an
        // input cut off in mid-tone, as minimodem's files end, looks like a start bit), never
        // one that was sent: a start bit is a whole bit of space.
        let lastStart = consumed - Int64((Double(segmentLength) * segmentsPerBit).rounded())
        let sent = events[first...].filter { $0.startSample < lastStart }
        events.removeSubrange(first...)
        events.append(contentsOf: sent)
    }
}
