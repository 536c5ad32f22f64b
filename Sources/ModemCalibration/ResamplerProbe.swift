import ModemDSP

/// Looks for a sample-rate converter between playback and capture in the returned chirp.
///
/// An all-digital path without conversion (a sound server's loopback, a digital loopback
/// device) returns the chirp delayed by whole samples and otherwise untouched. A converter
/// delays it by a fraction of a sample and leaves a residual: its interpolation filters are
/// not exact.
struct ResamplerProbe {
    let chirp: [Float]

    func evidence(_ x: UnsafeBufferPointer<Float>, at match: ChirpLocator.Match, drift: Double?) -> ResamplerEvidence {
        let whole = match.position.rounded()
        let fraction = abs(match.position - whole)
        let start = Int(whole)
        guard start >= 1, start + chirp.count + 2 < x.count else {
            return ResamplerEvidence(fractionalDelay: fraction, residualDB: 0, detected: false)
        }
        // Read the capture at the chirp's exact position (cubic interpolation), fit a gain,
        // and measure what is left.
        let t = match.position - whole
        var cc = 0.0, cy = 0.0, yy = 0.0
        var y = [Double](repeating: 0, count: chirp.count)
        for i in chirp.indices {
            let base = start + i + (t < 0 ? -1 : 0)
            let u = t < 0 ? 1 + t : t
            let p0 = Double(x[base - 1]), p1 = Double(x[base]), p2 = Double(x[base + 1]), p3 = Double(x[base + 2])
            let v = p1 + 0.5 * u * (p2 - p0 + u * (2 * p0 - 5 * p1 + 4 * p2 - p3 + u * (3 * (p1 - p2) + p3 - p0)))
            y[i] = v.isFinite ? v : 0
            let c = Double(chirp[i])
            cc += c * c
            cy += c * y[i]
            yy += y[i] * y[i]
        }
        let g = cc > 0 ? cy / cc : 0
        var residual = 0.0
        for i in chirp.indices {
            let e = y[i] - g * Double(chirp[i])
            residual += e * e
        }
        let residualDB = Decibels.clamped(decibels(power: residual / max(g * g * cc, 1e-30)))
        _ = yy
        _ = drift
        return ResamplerEvidence(fractionalDelay: fraction, residualDB: residualDB, detected: fraction > 0.02 && residualDB > -60)
    }
}
