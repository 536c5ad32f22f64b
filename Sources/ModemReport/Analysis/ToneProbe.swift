/// The amplitude of a tone over a stretch of samples: one bin of a DFT at any frequency
/// (a rotating phasor, no trigonometry per sample). For the few bits a report shows.
enum ToneProbe {
    /// |sum x[n] e^(-i w n)| * 2 / count: a sine of amplitude A at `frequency` reads about A.
    static func amplitude(_ samples: UnsafeBufferPointer<Float>, frequency: Double, sampleRate: Double) -> Float {
        guard !samples.isEmpty else { return 0 }
        let w = 2 * Double.pi * frequency / sampleRate
        let stepRe = cos(w)
        let stepIm = -sin(w)
        var re = 1.0
        var im = 0.0
        var sumRe = 0.0
        var sumIm = 0.0
        for (n, x) in samples.enumerated() {
            let v = Double(x.isFinite ? x : 0)
            sumRe += v * re
            sumIm += v * im
            let r = re * stepRe - im * stepIm
            im = re * stepIm + im * stepRe
            re = r
            // Renormalise now and then so rounding does not grow the phasor.
            if n & 255 == 255 {
                let m = (re * re + im * im).squareRoot()
                re /= m
                im /= m
            }
        }
        return Float((sumRe * sumRe + sumIm * sumIm).squareRoot() * 2 / Double(samples.count))
    }
}

#if canImport(Glibc)
    import Glibc
#endif
