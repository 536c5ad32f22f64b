import RealModule

/// The sine on the right channel that the HiJack board harvests its power from.
///
/// Phase-continuous across calls. At exactly half the sample rate it is drawn as a cosine,
/// i.e. alternating +A / -A samples like the stock app, because a sine there would be all
/// zeros. Amplitude 0 writes silence.
public struct HiJackPowerTone: Sendable {
    /// The tone's frequency in Hz, above 0 and at most half the sample rate.
    public let frequency: Double
    /// Output samples per second, in Hz (8000-192000).
    public let sampleRate: Double
    /// Peak level, 0-1 of full scale.
    public let amplitude: Float
    private var phase = PhaseAccumulator()
    private let increment: Double

    /// - Throws: `HiJackConfigurationError` when the tone is not in (0, fs/2] or the level not in 0-1.
    public init(frequency: Double, sampleRate: Double, amplitude: Float = 1) throws(HiJackConfigurationError) {
        guard sampleRate.isFinite, ModemProfile.sampleRateRange.contains(sampleRate) else {
            throw .sampleRateOutOfRange(sampleRate)
        }
        guard frequency.isFinite, frequency > 0, frequency <= sampleRate / 2 else {
            throw .powerToneOutOfRange(frequency, sampleRate)
        }
        guard amplitude.isFinite, (0...1).contains(amplitude) else {
            throw .amplitudeOutOfRange("power amplitude", Double(amplitude))
        }
        self.frequency = frequency
        self.sampleRate = sampleRate
        self.amplitude = amplitude
        increment = 2 * Double.pi * frequency / sampleRate
    }

    /// Writes `count` samples of the tone.
    public mutating func render(into output: UnsafeMutablePointer<Float>, count: Int) {
        render(into: output, count: count, stride: 1)
    }

    /// Writes the tone into every `stride`-th sample starting at `output[0]` (one channel of
    /// an interleaved buffer).
    public mutating func render(into output: UnsafeMutablePointer<Float>, count: Int, stride: Int) {
        let a = Double(amplitude)
        var p = phase
        for i in 0..<max(0, count) { output[i * stride] = Float(a * Double.cos(p.next(step: increment))) }
        phase = p
    }
}
