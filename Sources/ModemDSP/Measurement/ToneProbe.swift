import RealModule

/// Measures one known frequency in a stretch of audio: its amplitude and phase (one DFT
/// bin, computed with a rotating phasor instead of per-sample trigonometry).
///
/// Windows should hold a whole number of cycles (``wholeCycles(_:frequency:sampleRate:)``)
/// so the tone's mirror image at -f cancels; windows that leave the audio are clipped to it.
/// Phases refer to sample 0 of the buffer, so a tone exactly at ``frequency`` has the same
/// phase in every window and a frequency error shows as a phase slope.
///
/// One probe for every single-frequency measurement off the hot path: the loopback test's
/// levels and response, and the report's per-bit tone energies. Non-finite samples count
/// as silence.
public struct ToneProbe: Sendable {
    /// The frequency measured, in Hz.
    public let frequency: Double
    /// The sample rate of the audio measured, in Hz.
    public let sampleRate: Double
    private let step: (re: Double, im: Double)

    /// A probe for `frequency` in audio at `sampleRate` (both in Hz; 0 and half the rate are
    /// measured as the real components they are).
    public init(frequency: Double, sampleRate: Double) {
        self.frequency = frequency
        self.sampleRate = sampleRate
        let w = 2 * Double.pi * frequency / sampleRate
        step = (Double.cos(w), -Double.sin(w))
    }

    /// The complex amplitude (peak amplitude; phase of a cosine at sample 0) of the tone in
    /// `samples[start..<start+count]`; zero when the window is empty.
    public func measure(_ samples: UnsafeBufferPointer<Float>, start: Int, count: Int) -> (re: Double, im: Double) {
        let lo = max(0, start)
        let hi = min(samples.count, start + count)
        guard hi > lo else { return (0, 0) }
        let w = 2 * Double.pi * frequency / sampleRate
        let phase0 = (w * Double(lo)).truncatingRemainder(dividingBy: 2 * Double.pi)
        var pr = Double.cos(phase0)
        var pi = -Double.sin(phase0)
        var re = 0.0
        var im = 0.0
        var k = 0
        for i in lo..<hi {
            let x = samples[i].isFinite ? Double(samples[i]) : 0
            re += x * pr
            im += x * pi
            let nr = pr * step.re - pi * step.im
            pi = pr * step.im + pi * step.re
            pr = nr
            k += 1
            if k & 1023 == 0 {
                // Keep the phasor on the unit circle against rounding drift.
                let g = 1.5 - 0.5 * (pr * pr + pi * pi)
                pr *= g
                pi *= g
            }
        }
        let scale = frequency == 0 || 2 * frequency == sampleRate ? 1 / Double(hi - lo) : 2 / Double(hi - lo)
        return (re * scale, im * scale)
    }

    /// The peak amplitude of the tone in the window.
    public func amplitude(_ samples: UnsafeBufferPointer<Float>, start: Int, count: Int) -> Double {
        let z = measure(samples, start: start, count: count)
        return (z.re * z.re + z.im * z.im).squareRoot()
    }

    /// The longest window of at most `maxCount` samples holding a whole number of cycles
    /// (at least one; `maxCount` when a cycle is longer).
    public static func wholeCycles(_ maxCount: Int, frequency: Double, sampleRate: Double) -> Int {
        let period = sampleRate / frequency
        let cycles = (Double(maxCount) / period).rounded(.down)
        return cycles >= 1 ? max(1, Int((cycles * period).rounded())) : maxCount
    }
}
