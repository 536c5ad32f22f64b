/// What turns the edges of a HiJack line into frames: one per generation's line code.
///
/// The edge detector calls it once per comparator switch, with the switch dated at the
/// zero crossing that caused it, and once at the end of every chunk so a reader that ends
/// a packet on silence (lab11's postamble) can do so without waiting for the next edge.
protocol HiJackEdgeReader: Sendable {
    /// An edge at sample time `t` (fractional); `now` is the sample that revealed it.
    mutating func edge(at t: Double, rising: Bool, now: Double, into events: inout [ModemEvent])
    /// Time has reached `now` with no edge since the last call.
    mutating func advance(to now: Double, into events: inout [ModemEvent])
    /// The input ended at `now`.
    mutating func flush(at now: Double, into events: inout [ModemEvent])
    /// Frames decoded and frames rejected so far.
    var counts: HiJackCounts { get }
    /// True while a frame or packet is being read, or the clock runs through idle line.
    var isInBurst: Bool { get }
    /// The bit rate the clock currently runs at, in samples per bit.
    var period: Double { get }
}

/// What a HiJack decoder has decoded and dropped since it was made.
public struct HiJackCounts: Sendable, Equatable {
    /// Bytes delivered.
    public var bytes = 0
    /// Frames whose parity bit disagreed (Gen 1, infinity) or packets whose checksum
    /// disagreed (lab11).
    public var parityErrors = 0
    /// Frames cut short, or with a bad stop bit or bit count.
    public var framingErrors = 0
    /// Good frames dropped because nothing proved them.
    public var unprovenFrames = 0
    /// Current polarity belief: positive = normal, negative = inverted, 0 = undecided.
    public var polarityScore = 0
}

/// Where a comparator slices and how wide its hysteresis is, sample by sample.
protocol HiJackSlicer: Sendable {
    /// The filtered sample measured from the slicing level, and the hysteresis around it.
    mutating func slice(_ y: Float) -> (centered: Float, threshold: Float)
}

/// Slices at zero, with hysteresis at 30 % of a peak-following envelope (Gen 1, infinity).
struct EnvelopeSlicer: HiJackSlicer {
    var envelope: Float = 0
    let decay: Float

    @inline(__always)
    mutating func slice(_ y: Float) -> (centered: Float, threshold: Float) {
        let a = abs(y)
        envelope = a > envelope ? a : envelope * decay
        return (y, max(0.3 * envelope, HiJackEdgeDetector.minimumLevel))
    }
}

/// Slices at the midpoint of a peak and a trough that fall towards each other at the
/// envelope's rate, with hysteresis at 30 % of their half distance (lab11).
struct MidpointSlicer: HiJackSlicer {
    var top: Float = 0
    var bottom: Float = 0
    let relax: Float

    @inline(__always)
    mutating func slice(_ y: Float) -> (centered: Float, threshold: Float) {
        let span = top - bottom
        top = y > top ? y : top - relax * span
        bottom = y < bottom ? y : bottom + relax * span
        return (y - 0.5 * (top + bottom), max(0.15 * (top - bottom), HiJackEdgeDetector.minimumLevel))
    }
}

/// The signal path every HiJack generation shares, from the microphone line to dated edges.
///
/// Per sample: DC removal (first-order, 30 Hz, so the half-bit-rate and bit-rate parts of
/// the code keep the same delay), a 4th-order Butterworth low-pass (5 kHz, or 0.3 fs at
/// low rates) that removes the power tone leaking into the microphone line (its zeros sit
/// at fs/2, so a 22.05 kHz tone at 44.1 kHz vanishes), then a comparator with hysteresis
/// (``EnvelopeSlicer``). Each comparator switch is dated at the last zero crossing in its
/// direction, interpolated between samples, so edges carry fractional sample times and the
/// hysteresis adds no delay.
///
/// lab11 boards let the pin float between packets and open each with only four preamble
/// 1s, so the line's mean steps at every packet start and the AC coupling has not settled
/// when the start bit comes: there (`slicesAtMidpoint`) the comparator slices between a
/// peak and a trough that follow the signal (``MidpointSlicer``) instead of at zero.
///
/// Non-finite samples count as 0 (and are counted); input is clamped to +-8 so the filters'
/// state stays finite. Signals below ``minimumLevel`` produce no edges. The slicer is
/// chosen once per chunk, so the per-sample loop is specialised for each.
struct HiJackEdgeDetector: Sendable {
    /// The lowest level (peak, full scale = 1) the comparator reacts to.
    static let minimumLevel: Float = 0.002

    private var highPass: DCBlocker
    private var lowPass1: SecondOrderSection
    private var lowPass2: SecondOrderSection
    private var envelope: EnvelopeSlicer
    private var midpoint: MidpointSlicer?
    private var high = false
    private var previous: Float = 0
    private var lastUpCross: Double = 0
    private var lastDownCross: Double = 0
    private(set) var sampleIndex: Int64 = 0
    private(set) var nonFiniteSamples = 0

    init(sampleRate: Double, slicesAtMidpoint: Bool = false) {
        let cutoff = min(5_000, 0.3 * sampleRate)
        highPass = DCBlocker(cutoff: 30, sampleRate: sampleRate)
        lowPass1 = .lowPass(cutoff: cutoff, q: 0.5412, sampleRate: sampleRate)
        lowPass2 = .lowPass(cutoff: cutoff, q: 1.3066, sampleRate: sampleRate)
        let decay = Float(1 - 1 / (0.02 * sampleRate))
        envelope = EnvelopeSlicer(decay: decay)
        midpoint = slicesAtMidpoint ? MidpointSlicer(relax: 1 - decay) : nil
    }

    /// Runs a chunk through the path, handing each edge to `reader`, then tells it the time.
    mutating func process<R: HiJackEdgeReader>(
        _ samples: UnsafeBufferPointer<Float>, to reader: inout R, into events: inout [ModemEvent]
    ) {
        guard !samples.isEmpty else { return }
        if var slicer = midpoint {
            run(samples, &slicer, &reader, &events)
            midpoint = slicer
        } else {
            var slicer = envelope
            run(samples, &slicer, &reader, &events)
            envelope = slicer
        }
        reader.advance(to: Double(sampleIndex), into: &events)
    }

    @inline(__always)
    private mutating func run<S: HiJackSlicer, R: HiJackEdgeReader>(
        _ samples: UnsafeBufferPointer<Float>, _ slicer: inout S, _ reader: inout R, _ events: inout [ModemEvent]
    ) {
        // Per-sample state lives in locals; the reader sees only edges.
        var hp = highPass
        var lp1 = lowPass1
        var lp2 = lowPass2
        var isHigh = high
        var prev = previous
        var up = lastUpCross
        var down = lastDownCross
        var index = Double(sampleIndex)
        var bad = 0
        for x in samples {
            var v = x
            if !v.isFinite {
                v = 0
                bad += 1
            }
            v = min(max(v, -8), 8)
            let (y, threshold) = slicer.slice(lp2.step(lp1.step(hp.step(v))))
            if prev <= 0 && y > 0 {
                up = index - 1 + Double(prev / (prev - y))
            } else if prev >= 0 && y < 0 {
                down = index - 1 + Double(prev / (prev - y))
            }
            if !isHigh && y > threshold {
                isHigh = true
                reader.edge(at: up, rising: true, now: index, into: &events)
            } else if isHigh && y < -threshold {
                isHigh = false
                reader.edge(at: down, rising: false, now: index, into: &events)
            }
            prev = y
            index += 1
        }
        highPass = hp
        lowPass1 = lp1
        lowPass2 = lp2
        high = isHigh
        previous = prev
        lastUpCross = up
        lastDownCross = down
        sampleIndex += Int64(samples.count)
        nonFiniteSamples += bad
    }
}
