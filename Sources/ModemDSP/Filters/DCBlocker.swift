/// First-order DC blocker: y[n] = x[n] - x[n-1] + r * y[n-1].
///
/// A single pole keeps the phase shift small well above the corner (3 degrees at 20x the
/// corner), so the zero crossings of a line code with two fundamental frequencies move by
/// nearly the same amount and their spacing survives.
public struct DCBlocker: Sendable {
    /// The feedback coefficient (the pole): just under 1 for a corner far below the sample rate,
    /// 0 when the corner is at or above `sampleRate / (2 pi)`.
    public let r: Float
    @usableFromInline var x1: Float = 0
    @usableFromInline var y1: Float = 0

    /// Corner at `cutoff` Hz.
    public init(cutoff: Double, sampleRate: Double) {
        r = Float(max(0, 1 - 2 * Double.pi * cutoff / sampleRate))
    }

    /// Starts the filter as if it had passed a signal without DC up to a sample of value
    /// `x`: its next output follows its input from the first sample, with no step for the
    /// feedback to decay from (at rest on 0, a block that begins on a tone's peak rings for
    /// the filter's time constant).
    public mutating func prime(at x: Float) {
        x1 = x
        y1 = r > 0 ? x / r : 0
    }

    /// Filters one sample, returning it with its DC removed.
    @inlinable @inline(__always)
    public mutating func step(_ x: Float) -> Float {
        let y = x - x1 + r * y1
        x1 = x
        y1 = y
        return y
    }
}
