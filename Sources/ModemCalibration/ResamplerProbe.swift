import ModemDSP

/// Looks for a sample-rate converter between playback and capture.
///
/// The deciding sign is the converter's anti-alias filter: a response flat to 0.3 fs that
/// falls by more than 3 dB before 0.45 fs. A sound card at its own rate passes up to about
/// 0.45 fs (its converters' filters sit just below fs/2), and analogue band limits (a voice
/// channel, an RC filter) fall gradually from far lower. Reported beside it, not decisive:
/// the returned chirp's delay fraction and residual (an all-digital path without a converter
/// returns the chirp shifted by whole samples and otherwise untouched; but a converter's
/// delay can happen to be whole, and analogue paths leave residuals too).
struct ResamplerProbe {
    let chirp: [Float]

    /// True when `response` is flat (within 1.5 dB) up to 0.3 fs and its highest point
    /// above 0.38 fs is more than 3 dB down.
    static func steepTopCut(_ response: [ResponsePoint], sampleRate: Double) -> (cut: Double?, detected: Bool) {
        guard let top = response.last(where: { $0.frequency >= 0.38 * sampleRate }) else { return (nil, false) }
        let flat = response.filter { $0.frequency <= 0.3 * sampleRate }.allSatisfy { abs($0.relativeDB) <= 1.5 }
        return (top.relativeDB, flat && top.relativeDB < -3)
    }

    func evidence(
        _ x: UnsafeBufferPointer<Float>, at match: ChirpLocator.Match, response: [ResponsePoint],
        sampleRate: Double
    ) -> ResamplerEvidence {
        let (cut, detected) = Self.steepTopCut(response, sampleRate: sampleRate)
        let whole = match.position.rounded()
        let fraction = abs(match.position - whole)
        let start = Int(whole)
        guard start >= 1, start + chirp.count + 2 < x.count else {
            return ResamplerEvidence(fractionalDelay: fraction, residualDB: 0, topCutDB: cut, detected: detected)
        }
        // Read the capture at the chirp's exact position (cubic interpolation), fit a gain,
        // and measure what is left.
        let t = match.position - whole
        var cc = 0.0
        var cy = 0.0
        var y = [Double](repeating: 0, count: chirp.count)
        for i in chirp.indices {
            let base = start + i + (t < 0 ? -1 : 0)
            let u = t < 0 ? 1 + t : t
            let p0 = Double(x[base - 1])
            let p1 = Double(x[base])
            let p2 = Double(x[base + 1])
            let p3 = Double(x[base + 2])
            let v = p1 + 0.5 * u * (p2 - p0 + u * (2 * p0 - 5 * p1 + 4 * p2 - p3 + u * (3 * (p1 - p2) + p3 - p0)))
            y[i] = v.isFinite ? v : 0
            let c = Double(chirp[i])
            cc += c * c
            cy += c * y[i]
        }
        let g = cc > 0 ? cy / cc : 0
        var residual = 0.0
        for i in chirp.indices {
            let e = y[i] - g * Double(chirp[i])
            residual += e * e
        }
        let residualDB = Decibels.clamped(Decibels.power(residual / max(g * g * cc, 1e-30)))
        return ResamplerEvidence(fractionalDelay: fraction, residualDB: residualDB, topCutDB: cut, detected: detected)
    }
}
