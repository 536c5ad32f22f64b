public import ModemDSP

/// A live input meter: sample peak, RMS and peak hold per update, and for each burst of the
/// profile's tones the SNR, the tones' levels and whether both tones are there.
///
/// The input is cut into Hann-windowed frames of about 20 ms (FFTW, no overlap). A frame
/// belongs to a burst when its power in the tone band (both tones +- one baud) is over 3x
/// the noise expected there, the noise being read from the same frame's bins outside the
/// band (a median, so spurs do not count). A burst ends after three quiet frames.
///
/// Per burst, its frames' spectra are averaged (the first and last left out once there are
/// three, as they hold the burst's edges), and:
/// * noise per bin: the median of the bins outside the tone band, or of the tone band
///   between bursts when that was measured (at least 8 frames) and is not far quieter (a
///   quarter) than outside: a path that carries the sender's noise but is digitally silent
///   between bursts must not read as noise-free;
/// * signal: the tone band's power less that noise; SNR: the signal over the noise spread
///   over 0...fs/2, as `decode -v` and the channel simulations define it;
/// * tones present: each tone's +- half baud holds at least a tenth, and both together at
///   least half, of all the signal's power (the whole spectrum less the noise); while a
///   burst is under way, the mark tone alone (its preamble so far) counts too.
///
/// Streaming: ``process(_:)`` takes chunks of any size; a reading is made every
/// ``updateSamples`` samples (``readingCount`` counts them, ``reading`` is the latest).
/// Memory is fixed at construction. NaN and infinite samples are read as 0.
public final class LevelMeter {
    /// The profile whose tone bands the meter measures bursts in.
    public let profile: ModemProfile
    /// Samples per second of the input, in Hz (8000-192000).
    public let sampleRate: Double
    /// Samples per analysis frame (a power of two near 20 ms).
    public let frameLength: Int
    /// Samples between readings.
    public let updateSamples: Int
    /// Readings made so far.
    public private(set) var readingCount = 0
    /// The latest reading.
    public private(set) var reading = LevelReading()

    /// |x| at or above this is counted as clipped (a 16-bit sample within 0.5 % of full scale).
    public static let clipThreshold: Float = 0.995
    static let holdSeconds = 2.0
    static let hangoverFrames = 3

    let bands: LevelBands
    private let fft: RealFFT
    // Raw buffers from the pool (see ``BufferPool``): these are touched per sample and per
    // bin, and array properties of a class pay exclusivity checks on every access.
    private let buffers = BufferPool()
    private let window: UnsafeMutablePointer<Float>
    private let scale: Double
    private let bins: Int
    /// This frame's power per bin (a sine's lobe sums to its power, white noise of power P
    /// reads P / (n/2) per bin).
    private let frame: UnsafeMutablePointer<Double>
    private let burstSum: UnsafeMutablePointer<Double>
    private let firstFrame: UnsafeMutablePointer<Double>
    private let lastFrame: UnsafeMutablePointer<Double>
    private let gapSum: UnsafeMutablePointer<Double>
    private let intervalSum: UnsafeMutablePointer<Double>
    private let average: UnsafeMutablePointer<Double>
    private let scratch: UnsafeMutablePointer<Double>

    private var filled = 0
    private var totalSamples: Int64 = 0
    // Since the previous reading.
    private var intervalSamples = 0
    private var intervalPeak: Float = 0
    private var intervalSquares = 0.0
    private var intervalClipped = 0
    private var intervalFrames = 0
    // The peak of the samples the current frame holds so far, and of those in frames
    // analysed since the previous reading: the verdict judges only analysed samples, so a
    // burst that starts in the last frame of a reading is not "no tones" for a refresh.
    private var pendingPeak: Float = 0
    private var analysedPeak: Float = 0
    // Peak hold and clip hold, in samples.
    private var holdPeak: Float = 0
    private var holdAge = Int64.max
    private var lastClip: Int64?
    // Burst and gap state, in frames.
    private var inBurst = false
    private var burstFrames = 0
    private var burstStart: Int64 = 0
    private var burstEnd: Int64 = 0
    private var quietRun = Int.max
    private var gapFrames = 0.0
    private var lastBurst: BurstLevel?

    /// A meter for `profile` at `sampleRate`, reading every `updateInterval` seconds (at
    /// least every sample, at most every hour). The rate must lie in
    /// ``ModemProfile/sampleRateRange`` (``ModemProfile/validate(sampleRate:)`` checks it);
    /// bands of the profile beyond Nyquist are clamped.
    public init(profile: ModemProfile, sampleRate: Double, updateInterval: Double = 0.1) {
        precondition(ModemProfile.sampleRateRange.contains(sampleRate), "LevelMeter needs a sample rate of 8-192 kHz")
        self.profile = profile
        self.sampleRate = sampleRate
        var n = 64
        while Double(n) < sampleRate / 50 && n < 16_384 { n *= 2 }
        frameLength = n
        let interval = updateInterval.isFinite ? min(max(updateInterval, 0), 3600) : 0.1
        updateSamples = max(1, Int(sampleRate * interval))
        bands = LevelBands(profile: profile, sampleRate: sampleRate, frameLength: n)
        fft = RealFFT(size: n)
        let pool = buffers
        let (window, energy) = pool.hannWindow(n)
        self.window = window
        scale = 2 / (Double(n) * energy)
        bins = n / 2 + 1
        func buffer() -> UnsafeMutablePointer<Double> { pool.zeroed(n / 2 + 1) }
        frame = buffer()
        burstSum = buffer()
        firstFrame = buffer()
        lastFrame = buffer()
        gapSum = buffer()
        intervalSum = buffer()
        average = buffer()
        scratch = buffer()
    }

    /// Feeds samples; makes a reading each time ``updateSamples`` more have come in.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        guard var x = samples.baseAddress else { return }
        var remaining = samples.count
        let input = fft.input
        while remaining > 0 {
            let take = min(remaining, frameLength - filled, updateSamples - intervalSamples)
            var peak: Float = 0
            var squares = 0.0
            var clipped = 0
            for i in 0..<take {
                var v = x[i]
                if !v.isFinite { v = 0 }
                let a = abs(v)
                peak = a > peak ? a : peak
                squares += Double(v) * Double(v)
                clipped += a >= Self.clipThreshold ? 1 : 0
                input[filled + i] = v * window[filled + i]
            }
            if clipped > 0 { lastClip = totalSamples + Int64(take) }
            intervalPeak = max(intervalPeak, peak)
            pendingPeak = max(pendingPeak, peak)
            intervalSquares += squares
            intervalClipped += clipped
            filled += take
            intervalSamples += take
            totalSamples += Int64(take)
            x += take
            remaining -= take
            if filled == frameLength {
                filled = 0
                analyseFrame()
                analysedPeak = max(analysedPeak, pendingPeak)
                pendingPeak = 0
            }
            if intervalSamples == updateSamples { makeReading() }
        }
    }

    /// Feeds an array of samples, as the buffer overload does.
    public func process(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { process($0) }
    }

    private func analyseFrame() {
        fft.execute()
        var total = 0.0
        for k in 0..<bins {
            let p = Double(fft.power(k)) * scale
            frame[k] = p
            intervalSum[k] += p
            total += p
        }
        intervalFrames += 1
        let inBand = SpectrumMath.sum(frame, bands.toneBand)
        // Noise expected in the band: this frame's own outside bins, else what was measured
        // between bursts; -87 dBFS at the least, so digital silence is never a burst.
        let density =
            SpectrumMath.noiseDensity(frame, bands.reference, frames: 1, scratch: scratch)
            ?? (gapFrames >= 8 ? gapDensity() : 0)
        let expected = max(density * Double(bands.toneBand.count), 1e-9)
        if inBand > 3 * expected && inBand > 0.05 * total {
            if !inBurst {
                inBurst = true
                burstFrames = 0
                burstSum.update(repeating: 0, count: bins)
                firstFrame.update(from: frame, count: bins)
                burstStart = totalSamples - Int64(frameLength)
            }
            add(frame, to: burstSum)
            lastFrame.update(from: frame, count: bins)
            burstFrames += 1
            burstEnd = totalSamples
            quietRun = 0
            return
        }
        quietRun = quietRun == .max ? .max : quietRun + 1
        if inBurst {
            if quietRun >= Self.hangoverFrames {
                inBurst = false
                lastBurst = measureBurst()
            }
        } else if quietRun > Self.hangoverFrames {
            // Between bursts (the frame right after the hangover may still hold an edge).
            add(frame, to: gapSum)
            gapFrames += 1
            if gapFrames >= 512 {  // about ten seconds: halve, so old noise fades out
                for k in 0..<bins { gapSum[k] *= 0.5 }
                gapFrames *= 0.5
            }
        }
    }

    private func add(_ source: UnsafePointer<Double>, to sum: UnsafeMutablePointer<Double>) {
        for k in 0..<bins { sum[k] += source[k] }
    }

    /// Noise per bin in the tone band between bursts.
    private func gapDensity() -> Double {
        for k in 0..<bins { average[k] = gapSum[k] / gapFrames }
        return SpectrumMath.noiseDensity(average, [bands.toneBand], frames: gapFrames, scratch: scratch) ?? 0
    }

    private func measureBurst() -> BurstLevel {
        let trimmed = burstFrames >= 3
        let frames = Double(trimmed ? burstFrames - 2 : burstFrames)
        for k in 0..<bins {
            let s = trimmed ? burstSum[k] - firstFrame[k] - lastFrame[k] : burstSum[k]
            average[k] = max(0, s) / frames
        }
        // The gap density overwrites `average`; read the burst first.
        let outside = SpectrumMath.noiseDensity(
            average, bands.reference, frames: frames, tones: [profile.mark, profile.space],
            baud: profile.baud, binHz: bands.binHz, scratch: scratch)
        let inBand = SpectrumMath.sum(average, bands.toneBand)
        var total = 0.0
        for k in 0..<bins { total += average[k] }
        let markBand = SpectrumMath.sum(average, bands.mark)
        let spaceBand = SpectrumMath.sum(average, bands.space)
        let markPeak = SpectrumMath.strongest(average, bands.mark, binHz: bands.binHz)
        let spacePeak = SpectrumMath.strongest(average, bands.space, binHz: bands.binHz)
        let strongest = SpectrumMath.strongest(average, bands.searchable, binHz: bands.binHz)
        var density: Double?
        var source: BurstLevel.NoiseSource?
        if let outside {
            density = outside
            source = .outsideTheBand
        }
        if gapFrames >= 8 {
            let between = gapDensity()
            if outside.map({ between >= 0.25 * $0 }) ?? true {
                density = between
                source = .betweenBursts
            }
        }
        let d = density ?? 0
        let signal = max(0, inBand - d * Double(bands.toneBand.count))
        let allSignal = max(0, total - d * bands.fullBandBins)
        let mark = max(0, markBand - d * Double(bands.mark.count))
        let space = max(0, spaceBand - d * Double(bands.space.count))
        let noise = d * bands.fullBandBins
        let snr: Double? = density.map { _ in
            noise > 0 ? Decibels.power(signal / noise) : (signal > 0 ? .infinity : -.infinity)
        }
        // A burst under way may so far be its preamble alone (the mark tone): that is the
        // profile's too. A finished burst needs both tones.
        let both = mark >= 0.1 * allSignal && space >= 0.1 * allSignal
        let preamble = inBurst && mark >= 0.5 * allSignal
        let present = signal > 0 && mark + space >= 0.5 * allSignal && (both || preamble)
        return BurstLevel(
            snr: snr, levelDBFS: Decibels.power(2 * signal), markDBFS: Decibels.power(2 * mark),
            spaceDBFS: Decibels.power(2 * space), markFrequency: markPeak.frequency,
            spaceFrequency: spacePeak.frequency,
            noiseDBFS: Decibels.power(2 * noise), noiseSource: source, tonesPresent: present,
            strongestFrequency: strongest.frequency, durationSeconds: Double(burstEnd - burstStart) / sampleRate,
            ongoing: inBurst)
    }

    private func makeReading() {
        var r = LevelReading()
        let held = holdAge >= Int64(Self.holdSeconds * sampleRate)
        if intervalPeak >= holdPeak || held {
            holdPeak = intervalPeak
            holdAge = 0
        } else {
            holdAge += Int64(intervalSamples)
        }
        r.peakDBFS = Decibels.power(Double(intervalPeak) * Double(intervalPeak))
        r.rmsDBFS = Decibels.power(intervalSquares / Double(intervalSamples))
        r.peakHoldDBFS = Decibels.power(Double(holdPeak) * Double(holdPeak))
        r.clippedSamples = intervalClipped
        r.seconds = Double(totalSamples) / sampleRate
        if inBurst && burstFrames > 0 { lastBurst = measureBurst() }
        r.burst = lastBurst
        r.burstAge = inBurst ? 0 : Double(totalSamples - burstEnd) / sampleRate
        if intervalFrames > 0 {
            for k in 0..<bins { average[k] = intervalSum[k] / Double(intervalFrames) }
            let top = SpectrumMath.strongest(average, bands.searchable, binHz: bands.binHz)
            let floor =
                SpectrumMath.noiseDensity(average, [bands.searchable], frames: Double(intervalFrames), scratch: scratch)
                ?? 0
            if top.power > 100 * floor && top.power > 1e-10 { r.strongestTone = top.frequency }
        }
        r.verdict = verdict(
            r, analysedPeakDBFS: Decibels.power(Double(analysedPeak) * Double(analysedPeak)),
            clippedRecently: lastClip.map { totalSamples - $0 <= Int64(Self.holdSeconds * sampleRate) } ?? false)
        reading = r
        readingCount += 1
        intervalSamples = 0
        intervalPeak = 0
        intervalSquares = 0
        intervalClipped = 0
        intervalFrames = 0
        analysedPeak = 0
        intervalSum.update(repeating: 0, count: bins)
    }

    private func verdict(_ r: LevelReading, analysedPeakDBFS: Double, clippedRecently: Bool) -> LevelVerdict {
        if clippedRecently { return .clipping }
        guard let b = r.burst else {
            return analysedPeakDBFS < -60 ? .noSignal : .noProfileTones(strongest: r.strongestTone)
        }
        let advice: LevelVerdict
        if !b.tonesPresent {
            advice = .noProfileTones(strongest: b.strongestFrequency)
        } else if b.levelDBFS < -40 {
            advice = .weak
        } else if let snr = b.snr, snr < 3 {
            advice = .noisy
        } else {
            advice = .ok
        }
        if b.ongoing || r.burstAge <= Self.holdSeconds { return advice }
        // Between bursts the last burst's advice stands, unless something loud that is not
        // a burst of the profile's tones is playing now (hum and the like are not news).
        if analysedPeakDBFS >= -30, let f = r.strongestTone { return .noProfileTones(strongest: f) }
        return advice == .ok ? .idle : advice
    }
}
