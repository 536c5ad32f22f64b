/// Finds a known chirp in captured audio by cross-correlation: where it starts (to a
/// fraction of a sample), with which polarity, and how clearly it stands out.
///
/// A coarse pass correlates every `stride`-th sample at every `stride`-th lag, then a fine
/// pass refines around the best coarse lag; a parabola through the peak gives the fraction.
/// The stride keeps well inside the correlation peak, which is about fs / 3 kHz samples wide
/// for the 300 Hz to 3.4 kHz chirp: 1 up to 24 kHz, at most 4.
struct ChirpLocator {
    struct Match: Sendable, Equatable {
        /// Sample index in the capture where the chirp starts.
        var position: Double
        /// True when the chirp came back with inverted polarity.
        var inverted: Bool
        /// Peak correlation over the correlation's RMS across the searched lags: an echo of
        /// the chirp gives hundreds, noise alone about 4 to 5.
        var clarity: Double
        /// Correlation peak over the chirp's energy: the path's gain for the chirp.
        var gain: Double
    }

    let chirp: [Float]
    private let energy: Double
    private let stride: Int

    init(chirp: [Float], sampleRate: Double) {
        self.chirp = chirp
        energy = chirp.reduce(0.0) { $0 + Double($1 * $1) }
        stride = min(4, max(1, Int(sampleRate / 12_000)))
    }

    /// Searches starts `lags` (clipped to the capture) for the chirp; nil when the range is
    /// empty.
    func locate(in capture: UnsafeBufferPointer<Float>, lags: Range<Int>) -> Match? {
        let lo = max(0, lags.lowerBound)
        let hi = min(lags.upperBound, capture.count - chirp.count)
        guard hi > lo, !chirp.isEmpty else { return nil }
        return chirp.withUnsafeBufferPointer { c -> Match? in
            var best = lo
            var bestValue = 0.0
            var sumSquares = 0.0
            var n = 0
            var lag = lo
            while lag < hi {
                let v = correlate(capture, c, lag: lag, stride: stride)
                sumSquares += v * v
                n += 1
                if abs(v) > abs(bestValue) {
                    bestValue = v
                    best = lag
                }
                lag += stride
            }
            let fineLo = max(lo, best - 2 * stride - 2)
            let fineHi = min(hi, best + 2 * stride + 3)
            var values: [Double] = []
            for l in fineLo..<fineHi { values.append(correlate(capture, c, lag: l, stride: 1)) }
            guard let k = values.indices.max(by: { abs(values[$0]) < abs(values[$1]) }) else { return nil }
            let peak = values[k]
            var fraction = 0.0
            if k > 0, k < values.count - 1 {
                let a = abs(values[k - 1])
                let b = abs(peak)
                let d = abs(values[k + 1])
                let denominator = a - 2 * b + d
                if denominator < 0 { fraction = max(-0.5, min(0.5, 0.5 * (a - d) / denominator)) }
            }
            // The coarse pass summed one product in `stride`.
            let rms = (sumSquares / Double(max(1, n))).squareRoot() * Double(stride)
            return Match(
                position: Double(fineLo + k) + fraction, inverted: peak < 0,
                clarity: rms > 0 ? abs(peak) / rms : (peak == 0 ? 0 : .infinity), gain: abs(peak) / max(energy, 1e-30))
        }
    }

    private func correlate(_ x: UnsafeBufferPointer<Float>, _ c: UnsafeBufferPointer<Float>, lag: Int, stride: Int)
        -> Double
    {
        var sum: Float = 0
        var i = 0
        let n = c.count
        while i < n {
            let v = x[lag + i]
            sum += (v.isFinite ? v : 0) * c[i]
            i += stride
        }
        return Double(sum)
    }
}
