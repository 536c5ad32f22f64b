import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// What `softmodem encode` writes must be received by the real boards and apps.
@Suite("softmodem encode into the receiver models")
struct EncoderCompatibilityTests {
    @Test("Arduino receiver decodes the CLI's default level (-1 dBFS) and 6 dB quieter", arguments: [-1.0, -7.0])
    func arduino(dBFS: Double) throws {
        let bytes = Models.randomBytes(256, seed: 21)
        let decoded = Models.arduinoReceive(try Models.cliEncode(bytes, dBFS: dBFS))
        #expect(decoded == bytes, "\(dBFS) dBFS: \(Models.mismatch(bytes, decoded))")
    }

    @Test("iPhone app receiver decodes the CLI's default level (-1 dBFS) and 6 dB quieter", arguments: [-1.0, -7.0])
    func phone(dBFS: Double) throws {
        let bytes = Models.randomBytes(256, seed: 22)
        let decoded = Models.phoneReceive(try Models.cliEncode(bytes, dBFS: dBFS))
        #expect(decoded == bytes, "\(dBFS) dBFS: \(Models.mismatch(bytes, decoded))")
    }

    /// At 2450 baud a start bit needs only one space cycle (102 two-microsecond ticks), and the
    /// first period after silence is an 8-bit wrapped garbage value, so a real board may see
    /// a phantom 0xFF when a burst begins. Everything after it must be exact.
    @Test(
        "Arduino receiver decodes 2450 and 630 baud from the encoder",
        arguments: [ModemProfile.softmodem2450, .softmodem630])
    func otherRates(profile: ModemProfile) throws {
        let bytes = Models.randomBytes(100, seed: 23)
        let timing = try #require(ArduinoSoftModemTiming(profile: profile))
        let decoded = Models.arduinoReceive(try Models.cliEncode(bytes, profile: profile), timing: timing)
        let phantom = decoded.count == bytes.count + 1 && decoded.first == 0xFF && profile.baud > 1225
        #expect(
            decoded == bytes || (phantom && Array(decoded.dropFirst()) == bytes),
            "\(profile.name): \(Models.mismatch(bytes, decoded))")
    }
}
