/// Resamples a stream by a constant factor with cubic (Catmull-Rom) interpolation: output
/// sample k is the input read at position k * `step`.
///
/// A `step` of 1.03 plays the signal 3 % fast (tones and bit rate 3 % high: a sender whose
/// clock runs fast); 0.97 plays it 3 % slow. No anti-alias filter: fine for the small factors
/// used to model clock error. Streaming: keeps the last input samples between calls.
public struct Resampler: Sendable {
    /// Input samples consumed per output sample (1 when the requested step was not positive and finite).
    public let step: Double
    private var history: (Float, Float, Float, Float) = (0, 0, 0, 0)  // x[i-1], x[i], x[i+1], x[i+2]
    private var filled = 0
    private var position: Double = 0  // of the next output, relative to history.1

    /// `step` input samples per output sample (must be positive and finite; otherwise 1).
    public init(step: Double) {
        self.step = step.isFinite && step > 0 ? step : 1
    }

    /// Appends the output produced by `input` to `output`.
    public mutating func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        for x in input {
            history = (history.1, history.2, history.3, x)
            filled += 1
            if filled < 4 { continue }
            // history.1 .. history.2 is the interval [0, 1) in `position` units.
            while position < 1 {
                let t = Float(position)
                let (p0, p1, p2, p3) = history
                let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
                let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
                let c = -0.5 * p0 + 0.5 * p2
                output.append(((a * t + b) * t + c) * t + p1)
                position += step
            }
            position -= 1
        }
    }

    /// Appends the output produced by a whole array to `output`.
    public mutating func process(_ input: [Float], into output: inout [Float]) {
        input.withUnsafeBufferPointer { process($0, into: &output) }
    }
}
