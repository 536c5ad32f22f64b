public import ModemDSP

/// Builders of FSK test signals, their decoders, and the measures tests compare them with.
public enum TestSignals {
    /// `count` seeded pseudo-random bytes: the same seed gives the same bytes.
    public static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: g.next()) }
    }

    /// All 256 byte values in a seeded random order.
    public static func allBytesShuffled(seed: UInt64) -> [UInt8] {
        var g = SeededGenerator(seed: seed)
        return (0...255).map { UInt8($0) }.shuffled(using: &g)
    }

    /// One FSK burst of `bytes`: `preamble` and `postamble` bits around them and `silence`
    /// samples of silence on each side. Throws when the profile cannot run at `rate` Hz.
    public static func encode(
        _ bytes: [UInt8], profile: ModemProfile = .softmodem1225, rate: Double = 44_100,
        amplitude: Float = 0.9, format: FrameFormat = .eightN1,
        preamble: Int = 50, postamble: Int = 7, silence: Int = 0
    ) throws -> [Float] {
        let modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: amplitude)
        var encoder = BurstEncoder(
            modulator: modulator, format: format, preambleBits: preamble, postambleBits: postamble)
        return encoder.burst(bytes, leadingSilence: silence, trailingSilence: silence)
    }

    /// Decodes `samples` in chunks of `chunk` samples and returns every event.
    public static func events(
        _ samples: [Float], profile: ModemProfile = .softmodem1225, rate: Double = 44_100,
        format: FrameFormat = .eightN1, squelch: Double = DemodulatorConfiguration.defaultSquelch,
        chunk: Int = 4096
    ) throws -> [ModemEvent] {
        var demod = try FSKDemodulator(
            DemodulatorConfiguration(profile: profile, sampleRate: rate, format: format, squelch: squelch))
        var events: [ModemEvent] = []
        feed(samples, chunk: chunk) { demod.process($0, into: &events) }
        demod.flush(into: &events)
        return events
    }

    /// Hands `samples` to `body` in chunks of `chunk` samples (the last may be shorter).
    public static func feed(_ samples: [Float], chunk: Int, _ body: (UnsafeBufferPointer<Float>) -> Void) {
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(chunk, all.count - i)
                body(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
    }

    /// The bytes ``events(_:profile:rate:format:squelch:chunk:)`` decodes, without the errors.
    public static func decode(
        _ samples: [Float], profile: ModemProfile = .softmodem1225, rate: Double = 44_100,
        format: FrameFormat = .eightN1, squelch: Double = DemodulatorConfiguration.defaultSquelch,
        chunk: Int = 4096
    ) throws -> [UInt8] {
        try events(samples, profile: profile, rate: rate, format: format, squelch: squelch, chunk: chunk)
            .filter { $0.kind == .byte }.map(\.value)
    }

    /// Edit (Levenshtein) distance: missing, extra and wrong bytes each count one.
    public static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Mean power of a signal.
    public static func power(_ x: [Float]) -> Double {
        x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))
    }

    /// Adds white Gaussian noise for a full-band SNR (dB) measured against `signalPower`.
    public static func addNoise(_ x: inout [Float], snr: Double, signalPower: Double, seed: UInt64) {
        let sigma = (signalPower / Decibels.powerRatio(snr)).squareRoot()
        var noise = GaussianNoise(standardDeviation: sigma, seed: seed)
        noise.add(to: &x)
    }
}
