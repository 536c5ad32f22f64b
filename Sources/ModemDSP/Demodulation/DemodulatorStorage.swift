/// The demodulator's two rings (raw segments awaiting high-pass correction, and prefix sums
/// of corrected segments) and its scratch buffers, in memory allocated once.
///
/// Why a class with raw pointers rather than arrays: the rings are touched several times
/// per segment (every few samples), and each mutation of an array in a struct pays a
/// uniqueness check. ``FSKDemodulator`` keeps value semantics by copying this storage
/// when it is shared, once per `process` call (`isKnownUniquelyReferenced`).
final class DemodulatorStorage: @unchecked Sendable {
    // Safety: only ever mutated by the one demodulator that uniquely references it.
    let raw: UnsafeMutablePointer<RawSegment>
    let rawCount: Int
    let segmentLength: Int
    let ring: UnsafeMutablePointer<Double>
    let ringCount: Int
    /// Scratch for one candidate character's bits (FSKDemodulator.decide).
    let measures: UnsafeMutablePointer<FSKDemodulator.BitMeasure>
    let measureCount: Int
    /// Scratch for one block of mixed segments between the mixer and the segment pipeline
    /// (FSKDemodulator.process).
    let mixed: UnsafeMutablePointer<FSKDemodulator.MixedSegment>
    /// Scratch for one candidate character's bit boundaries (FSKDemodulator.search).
    let boundaries: UnsafeMutablePointer<Int>
    /// Scratch for the bit correlations and bit centres of both tones, mark bits in the first
    /// `measureCount` places, space bits in the rest (FSKDemodulator.learnPhases).
    let phaseCorrelations: UnsafeMutablePointer<(re: Double, im: Double)>
    let phaseCenters: UnsafeMutablePointer<Double>
    /// 1 / (n * segmentLength) for windows of n segments, n < ring slots (n = 0: infinity):
    /// the per-character code divides by window lengths dozens of times, and a table
    /// lookup costs a fraction of a division.
    let inverseSamples: UnsafeMutablePointer<Double>
    let mixedCapacity = 512

    init(rawCount: Int, ringCount: Int, measureCount: Int, segmentLength: Int) {
        self.rawCount = rawCount
        self.segmentLength = segmentLength
        self.ringCount = ringCount
        raw = .allocate(capacity: rawCount)
        raw.initialize(repeating: RawSegment(tones: .zero, x: 0, xx: 0, prefixX: 0), count: rawCount)
        ring = .allocate(capacity: ringCount)
        ring.initialize(repeating: 0, count: ringCount)
        self.measureCount = measureCount
        measures = .allocate(capacity: measureCount)
        mixed = .allocate(capacity: mixedCapacity)
        mixed.initialize(repeating: .init(), count: mixedCapacity)
        boundaries = .allocate(capacity: measureCount + 1)
        boundaries.initialize(repeating: 0, count: measureCount + 1)
        phaseCorrelations = .allocate(capacity: 2 * measureCount)
        phaseCorrelations.initialize(repeating: (0, 0), count: 2 * measureCount)
        phaseCenters = .allocate(capacity: 2 * measureCount)
        phaseCenters.initialize(repeating: 0, count: 2 * measureCount)
        let slots = ringCount / 6
        inverseSamples = .allocate(capacity: slots)
        for n in 0..<slots { (inverseSamples + n).initialize(to: 1 / Double(n * segmentLength)) }
    }

    func copy() -> DemodulatorStorage {
        let c = DemodulatorStorage(
            rawCount: rawCount, ringCount: ringCount, measureCount: measureCount, segmentLength: segmentLength)
        c.raw.update(from: raw, count: rawCount)
        c.ring.update(from: ring, count: ringCount)
        return c
    }

    deinit {
        raw.deallocate()
        ring.deallocate()
        measures.deallocate()
        mixed.deallocate()
        boundaries.deallocate()
        phaseCorrelations.deallocate()
        phaseCenters.deallocate()
        inverseSamples.deallocate()
    }
}
