import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

@Suite("iPhone app model")
struct PhoneAppModelTests {
    @Test("transmitter model into receiver model, several bursts with silence between")
    func loopback() throws {
        var tx = try PhoneAppTransmitter()
        var signal: [Float] = []
        var sent: [UInt8] = []
        for burst in 0..<4 {
            let bytes = Models.randomBytes(50, seed: UInt64(burst))
            sent += bytes
            tx.silence(samples: 10_000, into: &signal)
            tx.send(bytes, into: &signal)
        }
        tx.silence(samples: 10_000, into: &signal)
        let decoded = Models.phoneReceive(signal)
        #expect(decoded == sent, "\(Models.mismatch(sent, decoded))")
    }

    @Test("transmitter sends 16-bit samples at 7300/4900 Hz with 50/7 mark bits")
    func transmitterShape() throws {
        var tx = try PhoneAppTransmitter()
        var signal: [Float] = []
        tx.send([0x00], into: &signal)
        let bitSamples = 44_100.0 / 1225
        #expect(abs(Double(signal.count) - 67 * bitSamples) <= 1)
        #expect(signal.allSatisfy { ($0 * 32768).rounded() == $0 * 32768 })
        #expect(PhoneAppTransmitter.appProfile.mark == 7300)
    }

    @Test("edges must rise or fall by 16384 counts: a -16 dBFS tone is not received, -8 dBFS is")
    func edgeThreshold() throws {
        let bytes = Models.randomBytes(30, seed: 9)
        #expect(Models.phoneReceive(try Models.cliEncode(bytes, dBFS: -16)).isEmpty)
        #expect(Models.phoneReceive(try Models.cliEncode(bytes, dBFS: -8)) == bytes)
    }
}
