// Scoring candidate alignments of a character against the ring of running sums.

/// Scores candidate alignments (start time and bit length) of one character from the
/// demodulator's prefix ring: the start bit must be space, stop bits mark, and data bits
/// count by how clearly they decide.
///
/// A small value holding the pointers and constants the scoring needs, so the search's
/// many calls pass a few registers instead of copying the whole demodulator (a
/// non-mutating method called from a mutating one gets a copy of `self`, several hundred
/// bytes, per call).
struct AlignmentScorer {
    let ring: UnsafeMutablePointer<Double>
    let ringMask: Int
    /// 1 / samples in a window of n segments, indexed by n (DemodulatorStorage.inverseSamples).
    let inverseSamples: UnsafeMutablePointer<Double>
    /// Scratch: the bit boundaries last set (frameBits + 1 segments).
    let boundaries: UnsafeMutablePointer<Int>
    let frameBits: Int
    let stopBits: Int

    /// Rounds the bit boundaries (segments) of a character starting at `a` with bits `step`
    /// long into the boundary scratch, for ``score(offset:)``. A search scores many
    /// alignments a whole number of segments apart: they share these boundaries.
    func setBoundaries(start a: Double, step: Double) {
        let bounds = boundaries
        for k in 0...frameBits { bounds[k] = roundToInt(a + Double(k) * step) }  // k <= frameBits
    }

    /// How well a character fits the alignment `offset` segments after the boundaries last
    /// set: the start bit must be space, stop bits mark, data bits score how clearly they
    /// decide (energy difference per sample).
    func score(offset: Int) -> Double {
        let bounds = boundaries
        var score = 0.0
        var previous = ringTones(bounds[0] &+ offset)
        for k in 0..<frameBits {
            let next = ringTones(bounds[k &+ 1] &+ offset)
            let d = FSKDemodulator.energyDifference(
                next - previous, inverseSamples: inverseSamples[(bounds[k &+ 1] &- bounds[k]) & ringMask])
            FSKDemodulator.accumulate(d, bit: k, of: frameBits, stopBits: stopBits, into: &score)
            previous = next
        }
        return score
    }

    /// ``score(offset:)`` at offsets -1, 0 and 1 in one pass: the three alignments read
    /// neighbouring ring slots at every boundary (the same arithmetic, in the same order).
    func scoresAround() -> (Double, Double, Double) {
        let bounds = boundaries
        var scores = (0.0, 0.0, 0.0)
        var previous = (ringTones(bounds[0] &- 1), ringTones(bounds[0]), ringTones(bounds[0] &+ 1))
        for k in 0..<frameBits {
            let h = bounds[k &+ 1]
            let next = (ringTones(h &- 1), ringTones(h), ringTones(h &+ 1))
            let inverse = inverseSamples[(h &- bounds[k]) & ringMask]
            FSKDemodulator.accumulate(
                FSKDemodulator.energyDifference(next.0 - previous.0, inverseSamples: inverse), bit: k, of: frameBits,
                stopBits: stopBits, into: &scores.0)
            FSKDemodulator.accumulate(
                FSKDemodulator.energyDifference(next.1 - previous.1, inverseSamples: inverse), bit: k, of: frameBits,
                stopBits: stopBits, into: &scores.1)
            FSKDemodulator.accumulate(
                FSKDemodulator.energyDifference(next.2 - previous.2, inverseSamples: inverse), bit: k, of: frameBits,
                stopBits: stopBits, into: &scores.2)
            previous = next
        }
        return scores
    }

    /// The four tone correlations of the prefix ring at `position` (mark re, im, space re, im).
    @inline(__always)
    func ringTones(_ position: Int) -> SIMD4<Double> {
        UnsafeRawPointer(ring + 6 &* (position & ringMask)).loadUnaligned(as: SIMD4<Double>.self)
    }
}
