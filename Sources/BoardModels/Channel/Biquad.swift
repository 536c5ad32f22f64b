/// A second-order IIR section (direct form I, RBJ cookbook coefficients), streaming.
///
/// Low-pass and high-pass with a quality factor (0.7071 = Butterworth, the usual model of a
/// sound card's or a phone's band limits); a notch (a noise suppressor's or a hum filter's
/// cut, -3 dB bandwidth = frequency / q). State is kept between calls. Coefficients are
/// computed in Double; the loop runs in Float like a real audio path.
public struct Biquad: Sendable {
    public enum Kind: Sendable { case lowPass, highPass, notch }

    private let b0, b1, b2, a1, a2: Float
    private var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0

    /// A section with its corner at `frequency` Hz (clamped to 1 Hz...0.49 fs) and quality `q`
    /// (clamped to at least 0.1).
    public init(_ kind: Kind, frequency: Double, sampleRate: Double, q: Double = 0.7071067811865476) {
        let f = min(max(frequency, 1), 0.49 * sampleRate)
        let w = 2 * Double.pi * f / sampleRate
        let cw = modelCosine(w)
        let sw = modelSine(w)
        let alpha = sw / (2 * max(q, 0.1))
        let a0 = 1 + alpha
        let nb0: Double
        let nb1: Double
        let nb2: Double
        switch kind {
        case .lowPass:
            nb0 = (1 - cw) / 2
            nb1 = 1 - cw
            nb2 = (1 - cw) / 2
        case .highPass:
            nb0 = (1 + cw) / 2
            nb1 = -(1 + cw)
            nb2 = (1 + cw) / 2
        case .notch:
            nb0 = 1
            nb1 = -2 * cw
            nb2 = 1
        }
        b0 = Float(nb0 / a0)
        b1 = Float(nb1 / a0)
        b2 = Float(nb2 / a0)
        a1 = Float(-2 * cw / a0)
        a2 = Float((1 - alpha) / a0)
    }

    /// Filters `samples` in place.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        var x1 = self.x1
        var x2 = self.x2
        var y1 = self.y1
        var y2 = self.y2
        for i in samples.indices {
            let x = samples[i]
            let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            x2 = x1
            x1 = x
            y2 = y1
            y1 = y
            samples[i] = y
        }
        self.x1 = x1
        self.x2 = x2
        self.y1 = y1
        self.y2 = y2
    }

    /// Filters a whole array in place.
    public mutating func process(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }
}
