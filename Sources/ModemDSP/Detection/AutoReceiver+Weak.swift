// Bursts too weak to stand 10 dB over a noise floor: opened by their tones, named by trial.

extension AutoReceiver {
    /// The built-in profiles found in noise: all of them, those in the speech band (Bell 103,
    /// Bell 202, softmodem-126) included; burst confirmation and the trial's character
    /// count keep speech out.
    static let weakProfiles: [ModemProfile] = ModemProfile.builtIn
    /// Share of a block's power (scaled so a sine alone reads 1 and white noise 0.0015) one
    /// of the weak profiles' tones must hold for a block no louder than the noise to open a
    /// burst: a modem at -2 dB SNR reads 0.07-0.1.
    static let weakToneShare = 0.03
    /// Block power over the quiet floor from which a block is looked at for tones (a modem
    /// at -2 dB SNR raises it by 2 dB).
    static let weakLevel = 1.4

    /// Whether the block just ended holds one of the weak profiles' tones strongly (a
    /// Hann-windowed Goertzel filter per tone).
    func lastBlockIsTonal() -> Bool {
        let n = SignalSurvey.blockLength
        let block = history(from: samplesConsumed - Int64(n))
        guard block.count == n else { return false }
        return isTonal(block[...])
    }

    /// Whether `block` (one survey block) holds one of the weak profiles' tones strongly.
    func isTonal(_ block: ArraySlice<Float>) -> Bool {
        let n = SignalSurvey.blockLength
        guard block.count == n else { return false }
        let base = block.startIndex
        var total = 0.0
        for x in block { total += Double(x) * Double(x) }
        guard total > 0 else { return false }
        var tones: [Double] = []
        for p in Self.weakProfiles {
            for f in [p.mark, p.space] where f < 0.45 * sampleRate && !tones.contains(f) { tones.append(f) }
        }
        let window = Self.blockWindow
        for f in tones {
            let c = 2 * cosine(2 * Double.pi * f / sampleRate)
            var s1 = 0.0
            var s2 = 0.0
            for i in 0..<n {
                let s = Double(block[base + i]) * window[i] + c * s1 - s2
                s2 = s1
                s1 = s
            }
            let power = s1 * s1 + s2 * s2 - c * s1 * s2
            // A sine of amplitude A: |X|^2 = (A n / 4)^2, block energy A^2 n / 2.
            if power / (total * Double(n) / 8) >= Self.weakToneShare { return true }
        }
        return false
    }

    /// A burst that no analysis could measure but whose two strongest tones are a weak
    /// profile's (within 3 % and an eighth of its bit rate): the profile that decodes it in 8N1 with at least
    /// ``weakCharacters`` characters and no more than one error in four. Of those, the
    /// slowest whose carrier-to-noise density (mean Eb/N0 plus the bit rate in dB) is within
    /// 1.5 dB of the best: a faster profile with the same tones reads a slower sender's
    /// bits as pairs at the same carrier-to-noise density, a slower one reads a faster
    /// sender with two tones in a bit, well below it.
    func weakTrial(_ samples: [Float]) -> (ModemSignature, FSKDemodulator)? {
        let b = SignalSurvey.blockLength
        guard samples.count >= 2 * b else { return nil }
        let blocks = stride(from: 0, to: samples.count - b + 1, by: b).map { samples[$0..<($0 + b)] }
        let peaks = BandSpectrum(blocks: Array(blocks), sampleRate: sampleRate).tones(minimumProminence: 31.6).prefix(2)
        guard peaks.count == 2 else { return nil }
        let low = min(peaks[peaks.startIndex].frequency, peaks[peaks.startIndex + 1].frequency)
        let high = max(peaks[peaks.startIndex].frequency, peaks[peaks.startIndex + 1].frequency)
        // Within 3 % and an eighth of the bit rate: the spectrum of tones that are not
        // orthogonal peaks off them (Bell 202's 2200 Hz space peaked at 2270-2300 Hz in
        // 20-byte bursts, and no such burst at 3 dB SNR was found).
        func near(_ a: Double, _ b: Double, _ baud: Double) -> Bool { abs(a - b) <= 0.03 * b + baud / 8 }
        var passed: [(profile: ModemProfile, demod: FSKDemodulator, density: Double)] = []
        var events: [ModemEvent] = []
        for profile in Self.weakProfiles.sorted(by: { $0.baud < $1.baud })
        where near(low, min(profile.mark, profile.space), profile.baud)
            && near(high, max(profile.mark, profile.space), profile.baud)
        {
            guard let fresh = trial(profile, .eightN1, samples, into: &events) else { continue }
            let bytes = events.filter { $0.kind == .byte }
            guard bytes.count >= Self.weakCharacters, 4 * (events.count - bytes.count) <= bytes.count else { continue }
            let ebN0 = bytes.reduce(0.0) { $0 + ($1.fsk?.ebN0 ?? 0) } / Double(bytes.count)
            passed.append((profile, fresh, ebN0 + decibels(power: profile.baud)))
        }
        guard let best = passed.map(\.density).max(),
            let chosen = passed.first(where: { $0.density >= best - 1.5 })
        else { return nil }
        let p = chosen.profile
        return (ModemSignature(mark: p.mark, space: p.space, baud: p.baud), chosen.demod)
    }

    /// A fresh demodulator for `profile` in `format`, after a trial of it on `samples`
    /// left what it decoded (flushed) in `events`; nil when the profile cannot run at this
    /// sample rate.
    func trial(_ profile: ModemProfile, _ format: FrameFormat, _ samples: [Float], into events: inout [ModemEvent])
        -> FSKDemodulator?
    {
        let configuration = DemodulatorConfiguration(profile: profile, sampleRate: sampleRate, format: format)
        guard let fresh = try? FSKDemodulator(configuration) else { return nil }
        var trial = fresh
        events.removeAll(keepingCapacity: true)
        samples.withUnsafeBufferPointer { trial.process($0, into: &events) }
        trial.flush(into: &events)
        return fresh
    }

    /// The Hann window of one survey block.
    static let blockWindow: [Double] = (0..<SignalSurvey.blockLength).map {
        0.5 - 0.5 * cosine(2 * Double.pi * Double($0) / Double(SignalSurvey.blockLength))
    }

    /// Characters a weak burst's trial must decode.
    static let weakCharacters = 8
}
