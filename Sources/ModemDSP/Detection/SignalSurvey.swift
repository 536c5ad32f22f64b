/// A running survey of a whole input, kept beside the decoder, for saying what the input
/// held when nothing decoded (``Diagnosis``).
///
/// Per sample it only updates the level, the peak and a clipping count; per block of
/// ``blockLength`` samples it keeps the block if it is among the ``keptBlocks`` loudest so
/// far. The spectral and timing analysis runs once, at the end, on those blocks. Memory is
/// allocated at initialisation, and touched as blocks are kept. NaN and infinite samples
/// count as silence.
public struct SignalSurvey: Sendable {
    /// Samples per analysed block (2048: 21.5 Hz bins at 44.1 kHz, 46 ms).
    public static let blockLength = 2048
    /// The loudest blocks kept for analysis.
    public static let keptBlocks = 12
    /// A sample at or beyond this magnitude (within 1.5 LSB of 16-bit full scale), equal to
    /// the one before it, counts as clipped; so does any sample beyond full scale. Equal
    /// neighbours at the top code are what a clipped waveform is: a clean sine at full scale
    /// (minimodem's default level) puts 3 % of its samples within 0.01 dB of full scale, and
    /// two equal ones about its peak at low frequencies, but two at the top code only below
    /// about 75 Hz at 44.1 kHz (330 Hz at 192 kHz), under every modem tone.
    public static let clipLevel: Float = 1 - 1.5 / 32_768

    /// Samples per second of the input, in Hz (the diagnosis reads tones and bit rates against it).
    public let sampleRate: Double
    /// Samples surveyed so far.
    public private(set) var samples: Int64 = 0
    /// Sum of squares of every sample.
    public private(set) var energy = 0.0
    /// Largest magnitude seen.
    public private(set) var peak: Float = 0
    /// Samples at or beyond ``clipLevel`` and equal to the sample before (the flat tops of a
    /// clipped waveform), and samples beyond full scale.
    public private(set) var clippedSamples: Int64 = 0
    /// The sample before, for the flat tops.
    var previous: Float = 0

    /// Kept blocks, consecutive in `kept`, with their energies and start sample.
    var kept: [Float]
    var keptEnergy: [Double]
    var keptStart: [Int64]
    var current: [Float]
    var fill = 0
    var currentEnergy = 0.0

    /// An empty survey of input at `sampleRate` Hz (unchecked); its kept blocks are allocated now.
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        // Reserved, not filled: a page is touched only when a block is kept in it (filled
        // at once, the 96 KB cost a short decode 24 page faults).
        kept = []
        kept.reserveCapacity(Self.blockLength * Self.keptBlocks)
        keptEnergy = [Double](repeating: -1, count: Self.keptBlocks)
        keptStart = [Int64](repeating: 0, count: Self.keptBlocks)
        current = [Float](repeating: 0, count: Self.blockLength)
    }

    /// Mean power of everything surveyed (a full-scale sine reads 0.5).
    public var meanPower: Double { samples > 0 ? energy / Double(samples) : 0 }

    /// Mean power of the loudest block (0 before the first whole block).
    public var loudestBlockPower: Double {
        (keptEnergy.max() ?? 0).clamped(toAtLeast: 0) / Double(Self.blockLength)
    }

    /// Surveys float samples (full scale 1).
    public mutating func process(_ chunk: UnsafeBufferPointer<Float>) {
        for x in chunk { add(x.isFinite ? x : 0) }
    }

    /// Surveys 16-bit samples (full scale 32768).
    public mutating func process(_ chunk: UnsafeBufferPointer<Int16>) {
        for x in chunk { add(Float(x) * (1 / 32_768)) }
    }

    @inline(__always)
    mutating func add(_ x: Float) {
        let m = abs(x)
        if m > peak { peak = m }
        if m > 1 || (m >= Self.clipLevel && x == previous) { clippedSamples += 1 }
        previous = x
        let e = Double(x) * Double(x)
        energy += e
        currentEnergy += e
        current[fill] = x
        fill += 1
        samples += 1
        if fill == Self.blockLength { finishBlock() }
    }

    mutating func finishBlock() {
        // Keep the loudest blocks; among blocks of about the same level (within 1 dB), the
        // latest: a long burst's blocks are all alike, and its first ones are only preamble.
        var quietest = 0
        for i in 1..<Self.keptBlocks where keptEnergy[i] < keptEnergy[quietest] { quietest = i }
        var slot = -1
        if currentEnergy > keptEnergy[quietest] * 1.26 {
            slot = quietest
        } else if currentEnergy > 0 && currentEnergy * 1.26 >= keptEnergy[quietest] {
            for i in 0..<Self.keptBlocks where keptEnergy[i] <= currentEnergy * 1.26 {
                if slot < 0 || keptStart[i] < keptStart[slot] { slot = i }
            }
        }
        if slot >= 0 {
            keptEnergy[slot] = currentEnergy
            keptStart[slot] = samples - Int64(Self.blockLength)
            let base = slot * Self.blockLength
            if base == kept.count {
                // Slots fill in order (an empty one is the quietest): the next is appended.
                kept.append(contentsOf: current)
            } else {
                for i in 0..<Self.blockLength { kept[base + i] = current[i] }
            }
        }
        fill = 0
        currentEnergy = 0
    }

    /// The kept blocks, loudest first, as (start sample, samples). Blocks of digital silence
    /// are left out.
    func loudestBlocks() -> [(start: Int64, samples: ArraySlice<Float>)] {
        (0..<Self.keptBlocks).filter { keptEnergy[$0] > 0 }
            .sorted { keptEnergy[$0] > keptEnergy[$1] }
            .map { (keptStart[$0], kept[($0 * Self.blockLength)..<(($0 + 1) * Self.blockLength)]) }
    }
}

extension Double {
    func clamped(toAtLeast low: Double) -> Double { self < low ? low : self }
}
