import RealModule

/// A second-order IIR section (biquad, transposed direct form II): the one filter section of
/// the project, for the HiJack line filters and for the channel models of the tests.
///
/// Coefficients follow the RBJ audio-EQ cookbook, computed in Double; the loop runs in
/// Float like a real audio path. The low-pass has its double zero at fs/2, so a power tone at
/// exactly half the sample rate is removed completely. State is kept between calls.
public struct SecondOrderSection: Sendable {
    /// The responses the cookbook gives here: a low-pass or high-pass with a quality factor
    /// (0.7071 = Butterworth, the usual model of a sound card's or a phone's band limits),
    /// and a notch (a noise suppressor's or a hum filter's cut, -3 dB bandwidth = frequency / q).
    public enum Kind: Sendable { case lowPass, highPass, notch }

    /// Coefficients, normalised to a0 = 1:
    /// y[n] = b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2].
    public var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float
    @usableFromInline var z1: Float = 0
    @usableFromInline var z2: Float = 0

    /// A `kind` section at `frequency` Hz, clamped to 1 Hz...0.49 x `sampleRate`, with quality
    /// `q`, clamped to at least 0.1.
    public init(_ kind: Kind, frequency: Double, sampleRate: Double, q: Double = 0.7071067811865476) {
        let f = min(max(frequency, 1), 0.49 * sampleRate)
        let w = 2 * Double.pi * f / sampleRate
        let c = Double.cos(w)
        let alpha = Double.sin(w) / (2 * max(q, 0.1))
        let a0 = 1 + alpha
        let (n0, n1, n2): (Double, Double, Double) =
            switch kind {
            case .lowPass: ((1 - c) / 2, 1 - c, (1 - c) / 2)
            case .highPass: ((1 + c) / 2, -(1 + c), (1 + c) / 2)
            case .notch: (1, -2 * c, 1)
            }
        self.init(
            b0: Float(n0 / a0), b1: Float(n1 / a0), b2: Float(n2 / a0), a1: Float(-2 * c / a0),
            a2: Float((1 - alpha) / a0))
    }

    /// Low-pass at `cutoff` Hz with quality `q` (0.7071 = Butterworth).
    public static func lowPass(cutoff: Double, q: Double, sampleRate: Double) -> SecondOrderSection {
        SecondOrderSection(.lowPass, frequency: cutoff, sampleRate: sampleRate, q: q)
    }

    /// A section with these coefficients (a0 = 1).
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

    /// Filters `samples` in place.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        for i in samples.indices { samples[i] = step(samples[i]) }
    }

    /// Filters a whole array in place.
    public mutating func process(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }

    /// Clears the state (after non-finite input, for instance).
    public mutating func reset() {
        z1 = 0
        z2 = 0
    }
}
