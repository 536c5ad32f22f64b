import ModemDSP

/// What happens to the board's signal on its way into a computer's microphone input, for tests:
/// AC coupling, a band-limiting low-pass, crosstalk from the power tone, gain, clipping and
/// an optional inversion. Streaming: state is kept between calls.
public struct HiJackMicrophonePath {
    private var coupling: SecondOrderSection
    private var lowPass1: SecondOrderSection
    private var lowPass2: SecondOrderSection
    private var crosstalk: HiJackPowerTone?
    private var crosstalkBuffer: [Float] = []
    /// Linear gain applied after the filters and crosstalk, before clipping.
    public let gain: Float
    /// Absolute level, in full-scale units, the input clips at.
    public let clip: Float
    /// Whether the path inverts polarity.
    public let invert: Bool

    /// - Parameters:
    ///   - couplingHz: first-order-like AC coupling corner (a 2nd-order high-pass, Q 0.5).
    ///   - lowPassHz: 4th-order Butterworth band limit.
    ///   - crosstalkHz/crosstalkLevel: power tone added after the coupling (peak, full scale).
    ///   - gain: applied before clipping; `clip` is the absolute level the input clips at.
    public init(
        sampleRate: Double, couplingHz: Double = 30, lowPassHz: Double = 12_000,
        crosstalkHz: Double = 22_050, crosstalkLevel: Float = 0, gain: Float = 1, clip: Float = 1,
        invert: Bool = false
    ) {
        coupling = SecondOrderSection(.highPass, frequency: couplingHz, sampleRate: sampleRate, q: 0.5)
        let cutoff = min(lowPassHz, 0.45 * sampleRate)
        lowPass1 = SecondOrderSection(.lowPass, frequency: cutoff, sampleRate: sampleRate, q: 0.5412)
        lowPass2 = SecondOrderSection(.lowPass, frequency: cutoff, sampleRate: sampleRate, q: 1.3066)
        crosstalk =
            crosstalkLevel > 0
            ? try? HiJackPowerTone(
                frequency: min(crosstalkHz, sampleRate / 2), sampleRate: sampleRate, amplitude: crosstalkLevel) : nil
        self.gain = gain
        self.clip = clip
        self.invert = invert
    }

    /// Passes `samples` through the path in place.
    public mutating func process(_ samples: inout [Float]) {
        if crosstalkBuffer.count < samples.count { crosstalkBuffer = [Float](repeating: 0, count: samples.count) }
        if crosstalk != nil {
            crosstalkBuffer.withUnsafeMutableBufferPointer {
                crosstalk!.render(into: $0.baseAddress!, count: samples.count)
            }
        }
        coupling.process(&samples)
        lowPass1.process(&samples)
        lowPass2.process(&samples)
        let sign: Float = invert ? -1 : 1
        for i in samples.indices {
            var y = samples[i]
            if crosstalk != nil { y += crosstalkBuffer[i] }
            y *= gain * sign
            samples[i] = min(max(y, -clip), clip)
        }
    }
}
