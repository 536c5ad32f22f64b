import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// The original pairing, model against model: the app talks to the board and back.
@Suite("iPhone app and Arduino models talk to each other")
struct BoardToAppTests {
    @Test("app transmitter into the Arduino receiver")
    func appToBoard() throws {
        var tx = try PhoneAppTransmitter()
        var signal: [Float] = []
        let bytes = Models.randomBytes(120, seed: 61)
        for piece in stride(from: 0, to: bytes.count, by: 30) {
            tx.silence(samples: 5_000, into: &signal)
            tx.send(Array(bytes[piece..<(piece + 30)]), into: &signal)
        }
        tx.silence(samples: 5_000, into: &signal)
        let decoded = Models.arduinoReceive(signal)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    /// Preambles of 1-49 bits. After 208.5 ms idle the board's preamble wraps to 0 bits; the
    /// app then meets a start bit with no mark before it and garbles that write (9 byte
    /// errors in 120 here) - one reason sketches send a leading 0xFF. `softmodem decode` has
    /// no such weakness (see DemodulatorVersusTransmittersTests).
    @Test("Arduino transmitter into the app receiver (board output at 1 V full scale)")
    func boardToApp() throws {
        let bytes = Models.randomBytes(120, seed: 62)
        for gaps: [Int64] in [[30_000], [0], [0, 5_000, 30_000, 250_000]] {
            let signal = Models.arduinoBursts(bytes, piece: 12, gapsMicroseconds: gaps)
            let decoded = Models.phoneReceive(signal.map(PhoneAppTransmitter.quantise))
            #expect(decoded == bytes, "gaps \(gaps): \(Models.mismatch(bytes, decoded))")
        }
    }
}
