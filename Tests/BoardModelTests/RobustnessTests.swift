import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// Issue 3's robustness list: each case at least 500 bytes, zero byte errors, default
/// demodulator settings.
@Suite("Robustness: real-world paths, 500 bytes each, zero errors")
struct RobustnessTests {
    static let count = 500

    @Test("Arduino square wave through AC coupling and an 8 kHz low-pass, single-byte writes")
    func squareWaveLowPass() throws {
        let bytes = Models.randomBytes(Self.count, seed: 101)
        var signal = Models.arduinoBursts(bytes, piece: 1, gapsMicroseconds: [0, 0, 2_000, 0, 40_000])
        var lowPass1 = SecondOrderSection(.lowPass, frequency: 8_000, sampleRate: 44_100)
        var lowPass2 = SecondOrderSection(.lowPass, frequency: 8_000, sampleRate: 44_100)
        lowPass1.process(&signal)
        lowPass2.process(&signal)
        let decoded = try Models.demodulate(signal)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    @Test("clock and tone error of -3 % and +3 % (encoder resampled)", arguments: [0.97, 1.03])
    func clockErrorResampled(step: Double) throws {
        let bytes = Models.randomBytes(Self.count, seed: 102)
        var signal: [Float] = []
        for piece in stride(from: 0, to: bytes.count, by: 100) {
            signal += try Models.cliEncode(Array(bytes[piece..<min(bytes.count, piece + 100)]), dBFS: -6)
        }
        var resampler = Resampler(step: step)
        var shifted: [Float] = []
        resampler.process(signal, into: &shifted)
        let decoded = try Models.demodulate(shifted)
        #expect(decoded == bytes, "step \(step): \(Models.mismatch(bytes, decoded))")
    }

    @Test("clock and tone error of -3 % and +3 % (Arduino crystal off)", arguments: [-0.03, 0.03])
    func clockErrorArduino(error: Double) throws {
        let bytes = Models.randomBytes(Self.count, seed: 103)
        let signal = Models.arduinoBursts(bytes, piece: 25, clockError: error)
        let decoded = try Models.demodulate(signal)
        #expect(decoded == bytes, "clock error \(error): \(Models.mismatch(bytes, decoded))")
    }

    @Test("DC offset plus 50 Hz hum plus inverted polarity")
    func dcHumInverted() throws {
        let bytes = Models.randomBytes(Self.count, seed: 104)
        var signal: [Float] = []
        for piece in stride(from: 0, to: bytes.count, by: 125) {
            signal += try Models.cliEncode(Array(bytes[piece..<min(bytes.count, piece + 125)]), dBFS: -12)
        }
        var hum = ToneGenerator(frequency: 50, amplitude: 0.2, sampleRate: 44_100)
        hum.process(&signal)
        LevelImpairments(inverted: true, dcOffset: 0.15).process(&signal)
        let decoded = try Models.demodulate(signal)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    @Test("a -40 dBFS signal over a -75 dBFS noise floor, noise between the bursts")
    func quietSignal() throws {
        let bytes = Models.randomBytes(Self.count, seed: 105)
        var signal: [Float] = []
        for piece in stride(from: 0, to: bytes.count, by: 100) {
            signal += try Models.cliEncode(Array(bytes[piece..<min(bytes.count, piece + 100)]), dBFS: -40)
            signal += [Float](repeating: 0, count: 20_000)
        }
        var noise = WhiteNoiseChannel(levelDBFS: -75, seed: 7)
        noise.process(&signal)
        let decoded = try Models.demodulate(signal)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    @Test("a phone-like path: Arduino bursts, +15 dB SNR, high-pass 150 Hz, low-pass 9 kHz, fast AGC, clipping")
    func phonePath() throws {
        let bytes = Models.randomBytes(Self.count, seed: 106)
        var signal = Models.arduinoBursts(bytes, piece: 20, gapsMicroseconds: [0, 50_000, 208_500, 120_000])
        // Signal power of the board's burst (without the gaps), for the SNR definition.
        let burstPower = Models.power(
            Models.arduinoBursts(Models.randomBytes(100, seed: 1), piece: 100, gapsMicroseconds: [0])
                .dropFirst(4410).dropLast(4410).map { $0 })
        var noise = WhiteNoiseChannel(signalPower: burstPower, snr: 15, seed: 9)
        noise.process(&signal)
        var highPass = SecondOrderSection(.highPass, frequency: 150, sampleRate: 44_100)
        var lowPass = SecondOrderSection(.lowPass, frequency: 9_000, sampleRate: 44_100)
        var agc = AutomaticGainControl(target: 0.7, maxGain: 30, sampleRate: 44_100)
        highPass.process(&signal)
        lowPass.process(&signal)
        agc.process(&signal)
        LevelImpairments(clipLevel: 0.5).process(&signal)
        let decoded = try Models.demodulate(signal)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    @Test("48 kHz capture of the Arduino")
    func arduinoAt48k() throws {
        let bytes = Models.randomBytes(Self.count, seed: 107)
        let signal = Models.arduinoBursts(bytes, piece: 10, rate: 48_000)
        let decoded = try Models.demodulate(signal, rate: 48_000)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    @Test(
        "2450 and 630 baud with the Arduino's real, rounded tones",
        arguments: [ModemProfile.softmodem2450, .softmodem630])
    func otherRates(profile: ModemProfile) throws {
        let bytes = Models.randomBytes(Self.count, seed: 108)
        let signal = Models.arduinoBursts(bytes, piece: 50, profile: profile)
        let decoded = try Models.demodulate(signal, profile: profile)
        #expect(decoded == bytes, "\(profile.name): \(Models.mismatch(bytes, decoded))")
    }
}
