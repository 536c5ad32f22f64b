import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// `FSKDemodulator` (what `softmodem decode` runs) must decode every model transmitter.
@Suite("FSKDemodulator decodes every model transmitter")
struct DemodulatorVersusTransmittersTests {
    @Test(
        "Arduino transmitter, multi-byte writes with every kind of preamble",
        arguments: [ModemProfile.softmodem1225, .softmodem2450, .softmodem630, .softmodem315])
    func arduino(profile: ModemProfile) throws {
        let bytes = Models.randomBytes(profile.baud >= 1225 ? 300 : 60, seed: 31)
        let signal = Models.arduinoBursts(bytes, piece: 6, profile: profile)
        let decoded = try Models.demodulate(signal, profile: profile)
        #expect(decoded == bytes, "\(profile.name): \(Models.mismatch(bytes, decoded))")
    }

    @Test("Arduino transmitter, single-byte writes back to back")
    func arduinoSingleBytes() throws {
        let bytes = Models.randomBytes(200, seed: 32)
        let signal = Models.arduinoBursts(bytes, piece: 1, gapsMicroseconds: [0])
        let decoded = try Models.demodulate(signal)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    @Test("iPhone app transmitter (7300 Hz mark), bursts with zero samples between")
    func phone() throws {
        var tx = try PhoneAppTransmitter()
        var signal: [Float] = []
        var sent: [UInt8] = []
        for burst in 0..<4 {
            let bytes = Models.randomBytes(60, seed: 40 + UInt64(burst))
            sent += bytes
            tx.silence(samples: 8_000, into: &signal)
            tx.send(bytes, into: &signal)
        }
        tx.silence(samples: 8_000, into: &signal)
        let decoded = try Models.demodulate(signal)
        #expect(decoded == sent, "\(Models.mismatch(sent, decoded))")
    }
}
