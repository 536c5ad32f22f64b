/// A second-order IIR section (biquad, transposed direct form II), for the HiJack line filters.
///
/// Coefficients follow the RBJ audio-EQ cookbook; the low-pass has its double zero at
/// fs/2, so a power tone at exactly half the sample rate is removed completely.
public struct SecondOrderSection: Sendable {
    public var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float
    @usableFromInline var z1: Float = 0
    @usableFromInline var z2: Float = 0

    /// Low-pass at `cutoff` Hz with quality `q` (0.7071 = Butterworth).
    public static func lowPass(cutoff: Double, q: Double, sampleRate: Double) -> SecondOrderSection {
        let w = 2 * Double.pi * cutoff / sampleRate
        let c = cosine(w)
        let alpha = sine(w) / (2 * q)
        let a0 = 1 + alpha
        return SecondOrderSection(
            b0: Float((1 - c) / 2 / a0), b1: Float((1 - c) / a0), b2: Float((1 - c) / 2 / a0),
            a1: Float(-2 * c / a0), a2: Float((1 - alpha) / a0))
    }

    public init(b0: Float, b1: Float, b2: Float, a1: Float, a2: Float) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    /// Filters one sample.
    @inlinable @inline(__always)
    public mutating func step(_ x: Float) -> Float {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Clears the state (after non-finite input, for instance).
    public mutating func reset() {
        z1 = 0
        z2 = 0
    }
}
