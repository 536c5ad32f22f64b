import RealModule

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
    /// Block power over the quiet floor that keeps a burst going while it is gathered, and
    /// over which a blind stretch is searched for bursts (a modem at -2 dB SNR raises it by
    /// 2 dB).
    static let weakLevel = 1.4

    /// Whether a block of `power`, not 10 dB over the quiet `floor`, holds one of the weak
    /// profiles' tones strongly enough to open a burst. Any block at the floor or over it
    /// is looked at: a slow sender at Eb/N0 10 dB is far under the noise across the band
    /// (softmodem-126 at 48 kHz: -12.5 dB SNR at Eb/N0 10 dB, blocks 5 % over the noise), yet its tone
    /// holds 5 % of a block, thirty times what white noise puts there. A level gate of 1.4
    /// times the floor kept every such sender out (no options decoded nothing where pinned
    /// lost 0.2-14 % of its bytes). Looking costs about 60 multiplications a sample on
    /// almost every block listened to (a minute of white noise: 0.13 s of CPU, was 0.02 s).
    ///
    /// Not when the floor itself holds such a tone (``tonalFloor``): a continuous signal
    /// is its own quietest block, and a stretch of it that detection could not read is not
    /// to be reopened part way through (minimodem's text from its first sample came out
    /// without its first 59 bytes).
    func opensByTone(power: Double, floor: Double) -> Bool {
        floor > 0 && tonalFloor < 0 && power >= floor && lastBlockIsTonal()
    }

    /// Whether the block just ended holds one of the weak profiles' tones strongly (a
    /// Hann-windowed Goertzel filter per tone).
    func lastBlockIsTonal() -> Bool {
        let n = SignalSurvey.blockLength
        let block = history(from: samplesConsumed - Int64(n))
        guard block.count == n else { return false }
        return isTonal(block[...])
    }

    /// Whether at least half the blocks gathered since `start` hold one of the weak profiles'
    /// tones strongly (a stretch that was a modem throughout, not a noise floor).
    func stretchIsTonal(from start: Int64) -> Bool {
        let b = SignalSurvey.blockLength
        let samples = history(from: start)
        let count = samples.count / b
        var tonal = 0
        for k in 0..<count where isTonal(samples[(k * b)..<((k + 1) * b)]) { tonal += 1 }
        return count > 0 && 2 * tonal >= count
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
            let c = 2 * Double.cos(2 * Double.pi * f / sampleRate)
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

    /// A burst that no analysis could measure but whose tones are a weak profile's
    /// (``weakCandidates(_:)``): the profile that decodes it in 8N1 with at least
    /// ``weakCharacters`` characters and no more than one error in four. Of those, the
    /// slowest whose carrier-to-noise density (mean Eb/N0 plus the bit rate in dB) is within
    /// 1.5 dB of the best: a faster profile with the same tones reads a slower sender's
    /// bits as pairs at the same carrier-to-noise density, a slower one reads a faster
    /// sender with two tones in a bit, well below it. When a profile reads clean but too few
    /// characters and more of the burst can be gathered (``mayWait(_:_:baud:)``), waits.
    func weakTrial(_ samples: [Float], canWait: Bool) -> FormatChoice? {
        var passed: [(profile: ModemProfile, demod: FSKDemodulator, density: Double, clicks: Bool)] = []
        var events: [ModemEvent] = []
        var tooFew = false
        for profile in weakCandidates(samples) {
            guard let fresh = trial(profile, .eightN1, samples, into: &events) else { continue }
            let bytes = events.filter { $0.kind == .byte }
            guard !bytes.isEmpty, 4 * (events.count - bytes.count) <= bytes.count else { continue }
            guard bytes.count >= Self.weakCharacters else {
                // A slow sender's preamble fills most of the first blocks (a 126-baud burst
                // at 48 kHz read 7 characters in 24 blocks): wait for more of it.
                tooFew = tooFew || mayWait(canWait, samples.count, baud: profile.baud)
                continue
            }
            let ebN0 = bytes.reduce(0.0) { $0 + ($1.fsk?.ebN0 ?? 0) } / Double(bytes.count)
            let clicks = FrameFormat.eightN1.readsAsClicks(bytes)
            if clicks && !Self.measuresTones(bytes, profile, within: Self.clickToneTolerance) { continue }
            passed.append((profile, fresh, ebN0 + Decibels.power(profile.baud), clicks))
        }
        // Lone space bits far apart in every character (``FrameFormat/spaceBitsStandApart(_:)``)
        // are clicks as well as a sender: such a reading is chosen only when no other reads
        // more than that and its tones measure as the profile's within ``clickToneTolerance``,
        // and no faster profile with its tones reads its lone space bits as pairs of its own
        // (16 bytes of 0xFF at 1225 baud are 0xFE at 2450).
        let clickTones = passed.filter(\.clicks).map(\.profile)
        var candidates = passed.filter { p in
            !clickTones.contains { $0.baud < p.profile.baud && $0.hasTones(of: p.profile) }
        }
        if candidates.contains(where: { !$0.clicks }) { candidates.removeAll(where: \.clicks) }
        guard let best = candidates.map(\.density).max(),
            let chosen = candidates.first(where: { $0.density >= best - 1.5 })
        else { return tooFew ? .waitForMore : nil }
        let p = chosen.profile
        return .chosen(ModemSignature(mark: p.mark, space: p.space, baud: p.baud), .eightN1, chosen.demod)
    }

    /// How near a profile's tones a reading of clicks alone must measure to name it. Why 2 %:
    /// 16 bytes of 0xFF from minimodem (a sender) measure within 0.2 %; a Bell 103 sender with
    /// its tones the other way round that restarts their phase every bit reads as Bell 202
    /// clicks (0xFF, 0xF7, 0x77, 0x7F) measuring its space 3.4 % off at 11.025 kHz and 13 %
    /// at 22.05 kHz, and was printed with exit status 0 at 8-29.4 kHz.
    static let clickToneTolerance = 0.02

    /// The weak profiles, slowest first, one of whose tones is the strongest tone standing
    /// out of `samples`' averaged spectrum (by ``weakProminence(blocks:)``) while the other
    /// stands out by half as much where that profile puts it (within 3 % and an eighth of
    /// its bit rate: the spectrum of tones that are not orthogonal peaks off them, Bell
    /// 202's 2200 Hz space at 2270-2300 Hz in 20-byte bursts).
    ///
    /// Why not the two strongest tones: a slow sender's preamble is all mark, so in its
    /// first second the space stands out far less than the mark (a 126-baud burst at
    /// -12.7 dB SNR: mark 16, space 4.7 over 24 blocks), and any other tone outranks it.
    /// Looked for at one place, a smaller excess is as unlikely from noise alone.
    func weakCandidates(_ samples: [Float]) -> [ModemProfile] {
        let b = SignalSurvey.blockLength
        guard samples.count >= 2 * b else { return [] }
        let blocks = stride(from: 0, to: samples.count - b + 1, by: b).map { samples[$0..<($0 + b)] }
        let spectrum = BandSpectrum(blocks: Array(blocks), sampleRate: sampleRate)
        let prominence = Self.weakProminence(blocks: blocks.count)
        guard let strongest = spectrum.tones(minimumProminence: prominence).first?.frequency else { return [] }
        let floor = max(spectrum.floor, 1e-30)
        func near(_ a: Double, _ b: Double, _ baud: Double) -> Bool { abs(a - b) <= 0.03 * b + baud / 8 }
        func stands(_ f: Double, _ baud: Double) -> Bool {
            spectrum.strongest(within: 0.03 * f + baud / 8, of: f) >= max(3, prominence / 2) * floor
        }
        return Self.weakProfiles.sorted(by: { $0.baud < $1.baud }).filter { p in
            (near(strongest, p.mark, p.baud) && stands(p.space, p.baud))
                || (near(strongest, p.space, p.baud) && stands(p.mark, p.baud))
        }
    }

    /// How far (power ratio over the band's median) the strongest tone of `blocks` averaged
    /// spectra must stand out: 31.6 (15 dB) in one block, where noise alone reaches 10 in
    /// one bin of a few hundred; less as more blocks are averaged, since the noise's spread
    /// about its mean falls as one over their square root, but never under 6.
    static func weakProminence(blocks: Int) -> Double {
        max(6, 31.6 / Double(max(blocks, 1)).squareRoot())
    }

    /// A fresh demodulator for `profile` in `format`, after a trial of it on `samples`
    /// left what it decoded (flushed) in `events`; nil when the profile cannot run at this
    /// sample rate. The trial does not report the characters an unconfirmed opening
    /// dropped (``BurstConfirmation/reportsDropped``); the fresh demodulator does.
    func trial(_ profile: ModemProfile, _ format: FrameFormat, _ samples: [Float], into events: inout [ModemEvent])
        -> FSKDemodulator?
    {
        let configuration = DemodulatorConfiguration(profile: profile, sampleRate: sampleRate, format: format)
        guard let fresh = try? FSKDemodulator(configuration) else { return nil }
        var trial = fresh
        trial.confirmation.reportsDropped = false
        events.removeAll(keepingCapacity: true)
        samples.withUnsafeBufferPointer { trial.process($0, into: &events) }
        trial.flush(into: &events)
        return fresh
    }

    /// The Hann window of one survey block.
    static let blockWindow: [Double] = (0..<SignalSurvey.blockLength).map {
        0.5 - 0.5 * Double.cos(2 * Double.pi * Double($0) / Double(SignalSurvey.blockLength))
    }

    /// Characters a weak burst's trial must decode.
    static let weakCharacters = 8
}
