extension SignalSurvey {
    /// Loudest-block level under which an input cannot carry a usable modem signal.
    public static let quietLevelDBFS = -70.0
    /// Share of samples flat at full scale (``clippedSamples``) from which the input is said to clip.
    public static let clippingFraction = 0.001

    /// What the input surveyed so far holds: silence, a level too low, no tones in the modem
    /// band (with the strongest tone), two tones whose timing fits no format, or a modem
    /// with its tones, bit rate and matching profile; wrapped in ``Diagnosis/clipping(fraction:then:)``
    /// when the input clips. Runs the spectral analysis (a few milliseconds): call it once,
    /// at the end.
    public func diagnosis() -> Diagnosis {
        guard samples > 0, peak > 0 else { return .silence }
        var blocks = loudestBlocks().map(\.samples)
        if blocks.isEmpty {
            // Shorter than one block: the partial block, zero-padded.
            var padded = [Float](repeating: 0, count: Self.blockLength)
            for i in 0..<fill { padded[i] = current[i] }
            blocks = [padded[...]]
        }
        var loudest = 0.0
        for x in blocks[0] { loudest += Double(x) * Double(x) }
        let level = Decibels.power(loudest / Double(min(samples, Int64(Self.blockLength))))
        let found = Self.analyse(blocks, level: level, sampleRate: sampleRate)
        let clipped = Double(clippedSamples) / Double(samples)
        return clipped >= Self.clippingFraction ? .clipping(fraction: clipped, then: found) : found
    }

    /// `blocks` for the spectrum; the timing reads `contiguous` when given (one stretch, so
    /// that runs crossing block edges, a preamble above all, are whole), else the blocks.
    static func analyse(
        _ blocks: [ArraySlice<Float>], level: Double, sampleRate: Double,
        contiguous: ArraySlice<Float>? = nil
    ) -> Diagnosis {
        guard level >= quietLevelDBFS else { return .tooQuiet(levelDBFS: level) }
        let spectrum = BandSpectrum(blocks: blocks, sampleRate: sampleRate)
        // A tone stands 15 dB over the band's median bin; a modem's two within 12 dB of each other.
        let tones = spectrum.tones(minimumProminence: 31.6)
        guard let first = tones.first else {
            return .noModemTones(strongest: nil, strongestDBFS: nil, levelDBFS: level)
        }
        // Two tones within 12 dB of each other, or one broad peak (a narrow shift such as
        // Bell 103's 200 Hz merges into one): try them as a modem's.
        var trials: [(center: Double, difference: Double)] = []
        let pair = tones.count >= 2 && tones[1].power >= first.power / 16
        if pair {
            trials.append(((first.frequency + tones[1].frequency) / 2, abs(first.frequency - tones[1].frequency)))
        }
        // A line that idles at mark between slow characters shows little of space: weaker
        // peaks (down to 30 dB under the strongest) are tried as its partner next.
        var partners = 0
        if !pair {
            for t in spectrum.tones(minimumProminence: 3.16)
            where t.frequency != first.frequency && t.power >= first.power / 1000 {
                trials.append(((first.frequency + t.frequency) / 2, abs(first.frequency - t.frequency)))
                partners += 1
                if partners == 3 { break }
            }
        }
        for shift in [200.0, 400, 800, 1000] { trials.append((first.frequency, shift)) }
        var found: BitTimingEstimator.Estimate?
        for t in trials {
            let timing = BitTimingEstimator(sampleRate: sampleRate, center: t.center, difference: t.difference)
            // A modem's tones lie in the band and at least half the bit rate apart (what any
            // receiver needs to tell them apart within a bit).
            if let e = timing.estimate(blocks: contiguous.map { [$0] } ?? blocks), e.fit >= 0.5,
                e.upper - e.lower >= 0.4 * t.difference,
                e.lower >= 0.9 * BandSpectrum.lowestFrequency, e.upper <= 0.46 * sampleRate,
                e.upper - e.lower >= 0.5 * e.baud,
                found.map({ e.fit > $0.fit + 0.1 }) ?? true
            {
                found = e
            }
            if (pair || partners > 0) && found != nil { break }
        }
        guard let e = found else {
            if pair {
                let lower = min(first.frequency, tones[1].frequency)
                let upper = max(first.frequency, tones[1].frequency)
                return .tonesWithoutTiming(lower: lower, upper: upper, levelDBFS: level)
            }
            return .noModemTones(
                strongest: first.frequency, strongestDBFS: Decibels.power(first.power), levelDBFS: level)
        }
        let mark = e.markIsUpper ? e.upper : e.lower
        let space = e.markIsUpper ? e.lower : e.upper
        var signature = ModemSignature(mark: mark, space: space, baud: e.baud)
        signature.toneBits = e.toneBits
        return .modem(ToneConvention.named(signature))
    }
}
