import ModemDSP

/// Measures one known frequency in a stretch of audio: its amplitude and phase (one DFT
/// bin, computed with a rotating phasor instead of per-sample trigonometry).
///
/// Windows should hold a whole number of cycles (``wholeCycles(_:frequency:sampleRate:)``)
/// so the tone's mirror image at -f cancels; windows that leave the audio are clipped to it.
/// Phases refer to sample 0 of the buffer, so a tone exactly at ``frequency`` has the same
/// phase in every window and a frequency error shows as a phase slope.
struct ToneProbe {
    let frequency: Double
    let sampleRate: Double
    private let step: (re: Double, im: Double)

    init(frequency: Double, sampleRate: Double) {
        self.frequency = frequency
        self.sampleRate = sampleRate
        let w = 2 * Double.pi * frequency / sampleRate
        step = (cosine(w), -sine(w))
    }

    /// The complex amplitude (peak amplitude; phase of a cosine at sample 0) of the tone in
    /// `samples[start..<start+count]`; zero when the window is empty.
    func measure(_ samples: UnsafeBufferPointer<Float>, start: Int, count: Int) -> (re: Double, im: Double) {
        let lo = max(0, start)
        let hi = min(samples.count, start + count)
        guard hi > lo else { return (0, 0) }
        let w = 2 * Double.pi * frequency / sampleRate
        let phase0 = (w * Double(lo)).truncatingRemainder(dividingBy: 2 * Double.pi)
        var pr = cosine(phase0)
        var pi = -sine(phase0)
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
    func amplitude(_ samples: UnsafeBufferPointer<Float>, start: Int, count: Int) -> Double {
        let z = measure(samples, start: start, count: count)
        return (z.re * z.re + z.im * z.im).squareRoot()
    }

    /// The longest window of at most `maxCount` samples holding a whole number of cycles
    /// (at least one; `maxCount` when a cycle is longer).
    static func wholeCycles(_ maxCount: Int, frequency: Double, sampleRate: Double) -> Int {
        let period = sampleRate / frequency
        let cycles = (Double(maxCount) / period).rounded(.down)
        return cycles >= 1 ? max(1, Int((cycles * period).rounded())) : maxCount
    }
}

/// Level statistics of a stretch of audio: peak and mean square.
struct SampleStatistics {
    var peak = 0.0
    var meanSquare = 0.0

    init(_ samples: UnsafeBufferPointer<Float>, start: Int, count: Int) {
        let lo = max(0, start)
        let hi = min(samples.count, start + count)
        guard hi > lo else { return }
        var sum = 0.0
        var p: Float = 0
        for i in lo..<hi where samples[i].isFinite {
            let x = samples[i]
            sum += Double(x * x)
            p = max(p, abs(x))
        }
        peak = Double(p)
        meanSquare = sum / Double(hi - lo)
    }

    /// The mean power in dBFS relative to a full-scale sine (power 0.5).
    var levelDBFS: Double { Decibels.clamped(decibels(power: meanSquare / 0.5)) }
}
