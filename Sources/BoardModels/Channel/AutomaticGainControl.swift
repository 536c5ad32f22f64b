import ModemDSP
import RealModule

/// A fast automatic gain control like a phone's voice path: a peak envelope follower with a
/// quick attack and a slower release, and a gain that brings the envelope to `target`,
/// limited to `maxGain`.
///
/// It pumps on bursts (gain high in silence, so noise is boosted, then pulled down within a
/// few milliseconds of the burst start), which is the behaviour worth testing. Streaming.
public struct AutomaticGainControl: Sendable {
    /// The envelope level the gain aims for, in full-scale units.
    public let target: Float
    /// The largest linear gain applied, reached in silence (where it boosts the noise).
    public let maxGain: Float
    private let attack: Float
    private let release: Float
    private var envelope: Float

    /// Attack and release time constants in seconds (defaults: 2 ms and 50 ms, "fast").
    public init(
        target: Float = 0.5, maxGain: Float = 100, attackSeconds: Double = 0.002,
        releaseSeconds: Double = 0.050, sampleRate: Double
    ) {
        self.target = target
        self.maxGain = maxGain
        attack = Float(1 - Double.exp(-1 / (max(attackSeconds, 1e-6) * sampleRate)))
        release = Float(1 - Double.exp(-1 / (max(releaseSeconds, 1e-6) * sampleRate)))
        envelope = target / maxGain
    }

    /// Applies the gain to `samples` in place; NaN samples stay NaN and count as silence for the envelope.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        var env = envelope
        let floor = target / maxGain
        for i in samples.indices {
            let x = samples[i]
            let a = x.isNaN ? 0 : abs(x)
            env += (a > env ? attack : release) * (a - env)
            if env < floor { env = floor }
            samples[i] = x * (target / env)
        }
        envelope = env
    }

    /// Applies the gain to a whole array in place.
    public mutating func process(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }
}
