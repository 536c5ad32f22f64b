import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

@Suite("Round trips through modulator and demodulator")
struct RoundTripTests {
    static let rates: [Double] = [8_000, 22_050, 44_100, 48_000, 96_000]

    @Test("all 256 byte values, every profile, every rate", arguments: ModemProfile.builtIn, rates)
    func allBytes(profile: ModemProfile, rate: Double) throws {
        // Profiles whose tones do not fit under rate/2 are rejected, not decoded.
        if (try? profile.validate(sampleRate: rate)) == nil {
            #expect(throws: ModemConfigurationError.self) { try FSKModulator(profile: profile, sampleRate: rate) }
            return
        }
        let bytes = TestSignals.allBytesShuffled(seed: UInt64(rate) ^ UInt64(profile.baud))
        let signal = try TestSignals.encode(bytes, profile: profile, rate: rate, silence: Int(rate / 10))
        let decoded = try TestSignals.decode(signal, profile: profile, rate: rate, chunk: 1000)
        #expect(decoded == bytes)
    }

    @Test("no preamble, no postamble, odd chunk sizes")
    func noPreamble() throws {
        let bytes = TestSignals.randomBytes(300, seed: 7)
        let signal = try TestSignals.encode(bytes, preamble: 0, postamble: 0, silence: 0)
        for chunk in [1, 7, 36, 1000, 100_000] {
            #expect(try TestSignals.decode(signal, chunk: chunk) == bytes, "chunk \(chunk)")
        }
    }

    @Test("frame formats", arguments: [(5, Parity.none, 1), (7, .even, 1), (8, .odd, 2), (6, .even, 2), (8, .none, 2)])
    func frameFormats(dataBits: Int, parity: Parity, stopBits: Int) throws {
        let format = try FrameFormat(dataBits: dataBits, parity: parity, stopBits: stopBits)
        let bytes = TestSignals.randomBytes(200, seed: 3).map { $0 & format.valueMask }
        let signal = try TestSignals.encode(bytes, format: format, preamble: 3)
        #expect(try TestSignals.decode(signal, format: format) == bytes)
    }

    @Test("noise at -1 dB SNR: few errors")
    func noisy() throws {
        let bytes = TestSignals.randomBytes(1000, seed: 11)
        var signal = try TestSignals.encode(bytes, amplitude: 0.5)
        TestSignals.addNoise(&signal, snr: -1, signalPower: 0.125, seed: 5)
        let decoded = try TestSignals.decode(signal)
        let errors = TestSignals.editDistance(bytes, decoded)
        print("byte errors at -1 dB: \(errors)/1000")
        #expect(errors <= 20)
    }
}
