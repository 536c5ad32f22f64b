/// The SoftModem iPhone app's receiver (PROTOCOLS.md 1.6): an edge-timing discriminator on
/// raw 16-bit samples.
///
/// * Samples (full-scale units) are quantised to Int16 (clamped).
/// * An edge is a run of consecutive same-direction steps each larger than 256 counts, at
///   most 8 samples long; it is accepted when its total rise or fall exceeds 16384 counts
///   and its direction differs from the last accepted edge (so a tone must peak near
///   -10 dBFS or louder).
/// * The spacing of accepted edges is a half-wave width in samples; widths over 7.5 samples
///   are ignored. The last three widths are smoothed with weights 3/2/1 (newest heaviest);
///   an average under 3.75 samples means mark.
/// * Idle: a change from mark to space starts a character. Mark and space time are integrated
///   over each 816 us bit (36 samples at 44.1 kHz); bit 0 must be space, bits 1-8 are data
///   LSB first; the stop bit is not checked.
/// * 10 ms without an accepted edge resets everything.
///
/// The model times edges at the sample where the run ends. Streaming: chunks of any size;
/// bytes are appended to ``received`` (take them with ``drain()``).
public struct PhoneAppReceiver: Sendable {
    /// Input sample rate in Hz.
    public let sampleRate: Double
    private let bitSamples: Double
    private let resetSamples: Int64

    private var previous: Int32 = 0
    private var sampleIndex: Int64 = 0
    private var runDirection: Int32 = 0
    private var runLength = 0
    private var runStart: Int32 = 0
    private var lastEdgeDirection: Int32 = 0
    private var lastEdgeSample: Int64 = -1
    private var widths: (Double, Double, Double) = (0, 0, 0)
    private var widthCount = 0
    private var isMark = false
    private var known = false
    // Character state.
    private var inCharacter = false
    private var bitStart: Double = 0
    private var bitIndex = 0
    private var markTime: Double = 0
    private var spaceTime: Double = 0
    private var segmentStart: Double = 0
    private var bits: UInt8 = 0
    /// Bytes received so far.
    public private(set) var received: [UInt8] = []

    /// A receiver at `sampleRate` for `baud` (the app: 44.1 kHz, 1225 baud, 816 us bits).
    public init(sampleRate: Double = 44_100, baud: Double = 1225) {
        self.sampleRate = sampleRate
        bitSamples = sampleRate * Double(Int(1_000_000 / baud)) * 1e-6
        resetSamples = Int64(sampleRate * 0.010)
    }

    /// Returns and clears the received bytes.
    public mutating func drain() -> [UInt8] {
        defer { received.removeAll(keepingCapacity: true) }
        return received
    }

    /// Feeds samples in full-scale units; NaN reads as 0.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            let v = x.isNaN ? 0 : min(max(x, -1), 1)
            let s = Int32((v * 32767).rounded())
            step(s)
        }
    }

    /// Feeds a whole array.
    public mutating func process(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { process($0) }
    }

    private mutating func step(_ s: Int32) {
        let n = sampleIndex
        sampleIndex += 1
        let delta = s - previous
        let direction: Int32 = delta > 256 ? 1 : (delta < -256 ? -1 : 0)
        if direction != 0 && direction == runDirection {
            runLength += 1
        } else {
            finishRun(endSample: n - 1)
            if direction != 0 {
                runDirection = direction
                runLength = 1
                runStart = previous
            }
        }
        previous = s
        if lastEdgeSample >= 0 && n - lastEdgeSample > resetSamples { reset() }
    }

    private mutating func finishRun(endSample: Int64) {
        defer {
            runDirection = 0
            runLength = 0
        }
        guard runDirection != 0, runLength <= 8 else { return }
        let total = previous - runStart
        guard abs(total) > 16384, runDirection != lastEdgeDirection else { return }
        lastEdgeDirection = runDirection
        let time = endSample
        if lastEdgeSample >= 0 {
            let width = Double(time - lastEdgeSample)
            if width <= 7.5 { halfWave(width, endingAt: Double(time)) }
        }
        lastEdgeSample = time
    }

    private mutating func halfWave(_ width: Double, endingAt time: Double) {
        widths = (width, widths.0, widths.1)
        widthCount = min(widthCount + 1, 3)
        let average: Double
        switch widthCount {
        case 1: average = widths.0
        case 2: average = (3 * widths.0 + 2 * widths.1) / 5
        default: average = (3 * widths.0 + 2 * widths.1 + widths.2) / 6
        }
        let mark = average < 3.75
        if inCharacter {
            integrate(until: time, mark: mark)
        } else if known && isMark && !mark {
            inCharacter = true
            bitIndex = 0
            bits = 0
            markTime = 0
            spaceTime = 0
            bitStart = time - width
            segmentStart = bitStart
        }
        isMark = mark
        known = true
    }

    /// Credits the time since the last half-wave to the state just measured, closing bits.
    private mutating func integrate(until time: Double, mark: Bool) {
        var from = segmentStart
        while inCharacter && time >= bitStart + bitSamples {
            let end = bitStart + bitSamples
            if mark { markTime += end - from } else { spaceTime += end - from }
            closeBit()
            from = end
        }
        if inCharacter {
            if mark { markTime += time - from } else { spaceTime += time - from }
            segmentStart = time
        }
    }

    private mutating func closeBit() {
        let one = markTime > spaceTime
        markTime = 0
        spaceTime = 0
        bitStart += bitSamples
        segmentStart = bitStart
        if bitIndex == 0 {
            if one {
                inCharacter = false
                return
            }
        } else {
            bits = bits >> 1 | (one ? 0x80 : 0)
        }
        bitIndex += 1
        if bitIndex == 9 {
            received.append(bits)
            inCharacter = false
        }
    }

    private mutating func reset() {
        lastEdgeSample = -1
        lastEdgeDirection = 0
        widthCount = 0
        known = false
        isMark = false
        inCharacter = false
    }
}
