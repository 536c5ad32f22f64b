import BoardModels
import ModemDSP
import ModemTestSupport
import RealModule
import Testing

/// A long burst barely over a noise floor is opened by its tones and named by trial for
/// every FSK profile, those in the speech band (Bell 103, Bell 202, softmodem-126) too:
/// with no options it decodes about as well as with its profile named.
@Suite struct WeakBurstProfileTests {
    /// Each profile with the full-band SNR it is tested at: 0 dB (Bell 103, whose tones
    /// leak into each other's filters, decoded nothing there even pinned until that leakage
    /// was taken out of the burst confirmation's measures).
    static let cases: [(ModemProfile, Double)] = [
        (.bell103, 0), (.bell202, 0), (.softmodem126, 0), (.softmodem315, 0), (.softmodem630, 0),
        (.softmodem1225, 0), (.webjack1225, 0),
    ]

    @Test("a long burst in white noise decodes with no options as well as pinned", arguments: cases)
    func weak(profile: ModemProfile, snr: Double) throws {
        // About 12 seconds of data at any rate, after 1.5 seconds of noise alone.
        let bytes = TestSignals.randomBytes(Int(profile.baud * 1.2), seed: 23)
        var signal = try TestSignals.encode(bytes, profile: profile, amplitude: 0.3, silence: 66_150)
        TestSignals.addNoise(&signal, snr: snr, signalPower: 0.045, seed: 9)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        let pinned = try TestSignals.decode(signal, profile: profile)
        let autoErrors = TestSignals.editDistance(got, bytes)
        let pinnedErrors = TestSignals.editDistance(pinned, bytes)
        #expect(
            Double(autoErrors) <= 1.1 * Double(pinnedErrors) + 0.01 * Double(bytes.count),
            "\(profile.name): auto \(autoErrors), pinned \(pinnedErrors) of \(bytes.count): \(receiver.detections)")
        #expect(
            receiver.detections.first?.signature.profile?.name == profile.name,
            "\(profile.name): \(receiver.detections)")
    }

    /// The sensitivity table's floor (docs/levels.md): Eb/N0 10 dB, where a slow sender is
    /// far under the noise across the band (softmodem-126 at 48 kHz: -12.5 dB SNR). The
    /// trial wanted the two strongest tones of the burst's first second to be the profile's,
    /// and a slow sender's space, after its all-mark preamble, stood out too little: no
    /// options decoded nothing where pinned lost 14 % or less.
    @Test(
        "at Eb/N0 10 dB a slow sender decodes with no options as well as pinned",
        arguments: [ModemProfile.softmodem126, .softmodem315, .softmodem630, .bell103, .bell202], [44_100.0, 48_000])
    func slowAtTheTableFloor(profile: ModemProfile, rate: Double) throws {
        let bytes = TestSignals.randomBytes(Int(profile.baud * 1.2), seed: 25)
        // Noise alone first for 0.1 s (the burst opens before the floor is known, as in
        // `bench ber`) and for 1.5 s (the floor is known when it opens).
        for lead in [Int(rate / 10), Int(rate * 1.5)] {
            var signal = try TestSignals.encode(bytes, profile: profile, rate: rate, amplitude: 0.3, silence: lead)
            let snr = 10 - Decibels.power(rate / 2 / profile.baud)
            TestSignals.addNoise(&signal, snr: snr, signalPower: 0.045, seed: 11)
            let (autoErrors, pinnedErrors) = try Self.errors(signal, bytes, profile: profile, rate: rate)
            // The receiver starts its demodulator where the burst opens, pinned at the
            // first sample: their noise paths differ, and an error count spreads by about
            // its square root (315 baud: 24 against 17, Bell 202: 49 against 61).
            let spread = 3 * Double(pinnedErrors).squareRoot()
            #expect(
                Double(autoErrors) <= 1.1 * Double(pinnedErrors) + spread + 0.01 * Double(bytes.count),
                "\(profile.name) \(rate) lead \(lead): auto \(autoErrors), pinned \(pinnedErrors) of \(bytes.count)")
        }
    }

    /// A steady tone on a profile's frequency at the start of a capture (a stretch detection
    /// cannot read, mostly tonal) made the floor tonal for good: the noise after it never fell
    /// to half its level, so a weak sender seconds later was never opened by its tones.
    @Test("a weak burst after a steady tone has gone is found by its tones")
    func afterASteadyTone() throws {
        let (rate, profile) = (44_100.0, ModemProfile.softmodem315)
        let bytes = TestSignals.randomBytes(120, seed: 26)
        var signal = try TestSignals.encode(bytes, profile: profile, rate: rate, amplitude: 0.3, silence: 4 * 44_100)
        // 2 s of a steady tone at the profile's space (10 dB under the noise, 9 % of each
        // block), then 2 s of noise alone, then the burst at Eb/N0 12 dB.
        for i in 0..<(2 * 44_100) {
            signal[i] += Float(0.2 * Double.sin(2 * Double.pi * profile.space * Double(i) / rate))
        }
        let snr = 12 - Decibels.power(rate / 2 / profile.baud)
        TestSignals.addNoise(&signal, snr: snr, signalPower: 0.045, seed: 12)
        let (autoErrors, pinnedErrors) = try Self.errors(signal, bytes, profile: profile, rate: rate)
        #expect(
            Double(autoErrors) <= 1.1 * Double(pinnedErrors) + 3 * Double(pinnedErrors).squareRoot() + 2,
            "auto \(autoErrors), pinned \(pinnedErrors) of \(bytes.count)")
    }

    /// Bytes wrong (edit distance to `bytes`) in `signal` decoded with no options and with
    /// `profile` pinned.
    static func errors(_ signal: [Float], _ bytes: [UInt8], profile: ModemProfile, rate: Double) throws -> (
        auto: Int, pinned: Int
    ) {
        let (got, _) = try AutoReceiverTests.run(signal, rate: rate)
        let pinned = try TestSignals.decode(signal, profile: profile, rate: rate)
        return (TestSignals.editDistance(got, bytes), TestSignals.editDistance(pinned, bytes))
    }

    /// The receiver learns the noise floor from the input's first sound: a burst that began
    /// while that noise was still gathered (about 1.1 s) was lost whole, and one right at
    /// 10 dB over the floor flickered out of its gathering.
    @Test(
        "a burst beginning while the first second of noise is still being learned decodes",
        arguments: [(44_100, 10.0), (48_510, 10), (44_100, 15), (48_510, 15), (46_000, 0)])
    func duringNoiseFloor(lead: Int, snr: Double) throws {
        let bytes = TestSignals.randomBytes(600, seed: 24)
        var signal = try TestSignals.encode(bytes, amplitude: 0.3, silence: lead)
        TestSignals.addNoise(&signal, snr: snr, signalPower: 0.045, seed: 10)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(
            TestSignals.editDistance(got, bytes) <= 3,
            "lead \(lead), \(snr) dB: \(got.count) bytes \(receiver.detections)")
    }
}
