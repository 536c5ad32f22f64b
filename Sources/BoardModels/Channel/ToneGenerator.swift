import ModemDSP
import RealModule

/// Adds a sine tone whose frequency can sweep linearly between two limits and back
/// (a triangle sweep), e.g. 50 Hz mains hum (no sweep) or an interferer moving through the
/// modem band.
///
/// The phase is integrated per sample, so the tone is continuous across chunks and across
/// frequency changes. Streaming.
public struct ToneGenerator: Sendable {
    /// Peak amplitude of the tone, in full-scale units.
    public let amplitude: Float
    /// Bottom of the sweep in Hz; the steady frequency when not sweeping.
    public let lowFrequency: Double
    /// Top of the sweep in Hz.
    public let highFrequency: Double
    /// Seconds for one sweep from low to high (and as long back); 0 holds `lowFrequency`.
    public let sweepSeconds: Double
    private let sampleRate: Double
    private var phase = PhaseAccumulator()
    private var time: Double = 0

    /// A steady tone (hum): `frequency` Hz at peak `amplitude`.
    public init(frequency: Double, amplitude: Float, sampleRate: Double) {
        self.init(sweepingFrom: frequency, to: frequency, sweepSeconds: 0, amplitude: amplitude, sampleRate: sampleRate)
    }

    /// A tone sweeping from `low` to `high` Hz in `sweepSeconds` and back, repeatedly.
    public init(sweepingFrom low: Double, to high: Double, sweepSeconds: Double, amplitude: Float, sampleRate: Double) {
        lowFrequency = low
        highFrequency = high
        self.sweepSeconds = max(0, sweepSeconds)
        self.amplitude = amplitude
        self.sampleRate = sampleRate
    }

    /// The frequency at `time` seconds.
    public func frequency(at t: Double) -> Double {
        guard sweepSeconds > 0 else { return lowFrequency }
        let cycle = (t / (2 * sweepSeconds)).truncatingRemainder(dividingBy: 1)
        let ramp = cycle < 0.5 ? cycle * 2 : 2 - cycle * 2
        return lowFrequency + (highFrequency - lowFrequency) * ramp
    }

    /// Adds the tone to `samples`.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        let dt = 1 / sampleRate
        let a = Double(amplitude)
        for i in samples.indices {
            samples[i] += Float(a * Double.sin(phase.next(step: 2 * Double.pi * frequency(at: time) * dt)))
            time += dt
        }
    }

    /// Adds the tone to a whole array in place.
    public mutating func process(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }
}
