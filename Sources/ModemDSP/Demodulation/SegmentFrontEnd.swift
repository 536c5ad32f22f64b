/// The FSK demodulator's front end: samples in, a ring of running sums of high-passed tone
/// correlations out, from which any window's correlations and energies are two
/// subtractions (``windowSums(_:_:)``).
///
/// Three stages, each streaming:
/// * the mixer (``ToneMixer``) turns every ``segmentLength`` samples into one
///   ``FSKDemodulator/MixedSegment`` against one phase reference; a segment split across
///   calls waits in ``fill`` and `acc`;
/// * the high-pass holds raw segments back by ``delay`` (half its one-bit window) and
///   subtracts the centred moving mean from each (see ``append(_:_:until:)``);
/// * the ring keeps the running sums of corrected segments over a little more than one
///   character, for the searches to read.
///
/// Memory is fixed at initialisation (``DemodulatorStorage``, which the demodulator's
/// searches share for their scratch).
struct SegmentFrontEnd: Sendable {
    /// Samples per segment.
    let segmentLength: Int
    /// The high-pass's moving-mean length in segments (one bit).
    let window: Int
    /// Segments a raw segment waits before its high-pass: half the window.
    let delay: Int
    let inverseWindowSamples: Double
    /// Segments the ring covers at least.
    let span: Int
    let rawMask: Int
    let ringMask: Int

    // Mixer: both tones over a common period; `mixerPosition` is the period's segment
    // that the next (or the partial) segment is mixed against.
    private(set) var mixer: ToneMixer
    var mixerPosition = 0
    // Partial segment: `fill` samples of it are in `acc`.
    var acc = FSKDemodulator.SegmentAccumulator()
    private(set) var fill = 0

    // Raw segments awaiting high-pass correction (storage.raw): correlations, sum x,
    // sum x^2, prefix of x before the segment. `correctionPosition` is the mixer period's
    // segment of the raw segment `delay` places back, the one corrected next.
    var rawCount = 0
    var rawPrefixX = 0.0
    var correctionPosition = 0

    // Ring of prefix sums of corrected segments: 6 doubles per slot (mark re, im, space re,
    // im, sum x, sum x^2).
    private(set) var storage: DemodulatorStorage
    /// Corrected segments in the ring so far.
    var segments = 0
    var prefix = PrefixSums()

    /// - Parameters:
    ///   - window: the high-pass length in segments (one bit, at least 2).
    ///   - span: segments the ring must cover (the longest window a search reads).
    ///   - frameBits: bits per character, for the searches' scratch.
    init(mark: Double, space: Double, sampleRate: Double, segmentLength: Int, window: Int, span: Int, frameBits: Int) {
        self.segmentLength = segmentLength
        self.window = window
        self.span = span
        mixer = ToneMixer(mark: mark, space: space, sampleRate: sampleRate, segmentLength: segmentLength)
        delay = window / 2
        correctionPosition = Self.positionBehind(0, by: delay, period: mixer.segmentsPerPeriod)
        inverseWindowSamples = 1 / Double(window * segmentLength)
        var rawSize = 8
        while rawSize < 2 * delay + 4 { rawSize <<= 1 }
        rawMask = rawSize - 1
        var size = 64
        while size < 2 * span { size <<= 1 }
        storage = DemodulatorStorage(
            rawCount: rawSize, ringCount: 6 * size, measureCount: frameBits, segmentLength: segmentLength)
        ringMask = size - 1
    }

    /// Copies the storage if another demodulator value shares it (value semantics).
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Mixes against new tones from the next segment on, keeping the time base.
    ///
    /// The new period starts afresh: the phase reference jumps, which is harmless between
    /// bursts. The few raw segments still awaiting their high-pass are corrected with the
    /// new tones' sums: a negligible error that only a DC offset could make visible, one
    /// bit long. A partial segment keeps its samples and finishes against the new table.
    mutating func retune(mark: Double, space: Double, sampleRate: Double) {
        mixer = ToneMixer(mark: mark, space: space, sampleRate: sampleRate, segmentLength: segmentLength)
        mixerPosition = 0
        correctionPosition = Self.positionBehind(0, by: delay, period: mixer.segmentsPerPeriod)
    }

    /// Adds up to the missing samples of the partial segment from `x` (`n` available);
    /// returns how many it took. When that completes the segment, it is written to
    /// `storage.mixed[0]` and ``fill`` is 0 again.
    @inline(__always)
    mutating func continuePartial<S: MixerSample>(_ x: UnsafePointer<S>, _ n: Int) -> Int {
        let b = segmentLength
        let take = min(b - fill, n)
        FSKDemodulator.mixPartial(x, take, mixer.table + mixerPosition * b, fill: fill, &acc)
        fill += take
        if fill == b {
            fill = 0
            storage.mixed[0] = acc.segment
            acc = FSKDemodulator.SegmentAccumulator()
            mixerPosition = mixerPosition + 1 == mixer.segmentsPerPeriod ? 0 : mixerPosition + 1
        }
        return take
    }

    /// Mixes the whole segments of the `n` samples at `x` (at most a scratch block of them)
    /// into `storage.mixed`; returns how many. The fill must be 0.
    @inline(__always)
    mutating func mixWhole<S: MixerSample>(_ x: UnsafePointer<S>, _ n: Int) -> Int {
        let count = min(n / segmentLength, storage.mixedCapacity)
        mixerPosition = FSKDemodulator.mixWhole(
            x, count, segmentLength, mixer, from: mixerPosition, into: storage.mixed)
        return count
    }

    /// Starts a partial segment with the `n` (fewer than ``segmentLength``) samples at `x`.
    mutating func startPartial<S: MixerSample>(_ x: UnsafePointer<S>, _ n: Int) {
        FSKDemodulator.mixPartial(x, n, mixer.table + mixerPosition * segmentLength, fill: 0, &acc)
        fill = n
    }

    /// Mixes `count` whole segments of `samples` into `out` without changing any state
    /// (see ``FSKDemodulator/mixSegments(_:into:)``).
    func mixAhead(
        _ samples: UnsafePointer<Float>, _ count: Int, into out: UnsafeMutablePointer<FSKDemodulator.MixedSegment>
    ) {
        _ = FSKDemodulator.mixWhole(samples, count, segmentLength, mixer, from: mixerPosition, into: out)
    }

    /// Moves the mixer's phase reference past `count` segments mixed elsewhere.
    mutating func skipMixer(_ count: Int) {
        mixerPosition = (mixerPosition + count) % mixer.segmentsPerPeriod
    }

    /// 1 / (samples in `segments` segments), from a table: see DemodulatorStorage.inverseSamples.
    @inline(__always)
    func inverseSamples(_ segments: Int) -> Double {
        storage.inverseSamples[segments & ringMask]
    }

    /// Sums over segments [lo, hi): mark, space (complex), sum x, sum x^2.
    ///
    /// Segment positions stay far below 2^50, so the index arithmetic here (and in the
    /// searches' per-character helpers) uses the wrapping operators: the overflow checks of
    /// the plain ones were about 5 % of a decode, run a few hundred times per character.
    @inline(__always)
    func windowSums(_ lo: Int, _ hi: Int) -> Window {
        let r = storage.ring
        let a = 6 &* (lo & ringMask)
        let b = 6 &* (hi & ringMask)
        return Window(
            mr: r[b] - r[a], mi: r[b &+ 1] - r[a &+ 1], sr: r[b &+ 2] - r[a &+ 2],
            si: r[b &+ 3] - r[a &+ 3], x: r[b &+ 4] - r[a &+ 4], xx: r[b &+ 5] - r[a &+ 5],
            samples: Double((hi &- lo) &* segmentLength), inverseSamples: inverseSamples(hi &- lo))
    }

    /// The segment `distance` places before `position` in a period of `period` segments.
    static func positionBehind(_ position: Int, by distance: Int, period: Int) -> Int {
        ((position - distance) % period + period) % period
    }
}
