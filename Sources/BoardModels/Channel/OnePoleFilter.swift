import ModemDSP
import RealModule

/// A first-order (RC) low-pass or high-pass filter, streaming.
///
/// A high-pass models AC coupling: a series capacitor into a resistive load has its corner at
/// 1 / (2 pi R C) (0.47 uF into about 5.6 kOhm is 60 Hz). State is kept between calls, so
/// chunks of any size give the same output as one call. NaN input propagates; a reset
/// clears it.
public struct OnePoleFilter: Sendable {
    /// Whether the filter passes the frequencies below or above its corner.
    public enum Kind: Sendable { case lowPass, highPass }

    /// Whether this filter is a low-pass or a high-pass.
    public let kind: Kind
    /// The -3 dB corner in Hz, after clamping to 0...0.45 times the sample rate.
    public let cornerFrequency: Double
    private let a: Float
    private var previousInput: Float = 0
    private var state: Float = 0

    /// A filter with its -3 dB corner at `cornerFrequency` Hz (clamped to 0...0.45 fs).
    public init(_ kind: Kind, cornerFrequency: Double, sampleRate: Double) {
        self.kind = kind
        let fc = min(max(cornerFrequency, 0), 0.45 * sampleRate)
        self.cornerFrequency = fc
        a = Float(Double.exp(-2 * Double.pi * fc / sampleRate))
    }

    /// The AC coupling of a capacitor `farads` into a load of `ohms`.
    public static func acCoupling(farads: Double, ohms: Double, sampleRate: Double) -> OnePoleFilter {
        OnePoleFilter(.highPass, cornerFrequency: 1 / (2 * Double.pi * farads * ohms), sampleRate: sampleRate)
    }

    /// Filters `samples` in place.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        var y = state
        var x1 = previousInput
        let a = self.a
        switch kind {
        case .lowPass:
            for i in samples.indices {
                y += (1 - a) * (samples[i] - y)
                samples[i] = y
            }
        case .highPass:
            for i in samples.indices {
                let x = samples[i]
                y = a * (y + x - x1)
                x1 = x
                samples[i] = y
            }
        }
        state = y
        previousInput = x1
    }

    /// Filters one sample.
    @inlinable
    public mutating func process(_ x: Float) -> Float {
        var v = x
        withUnsafeMutablePointer(to: &v) { process(UnsafeMutableBufferPointer(start: $0, count: 1)) }
        return v
    }

    /// Filters a whole array in place.
    public mutating func process(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }
}
