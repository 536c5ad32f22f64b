import BoardModels
import CommandLineText
import ModemDSP
import ModemTestSupport
import Testing

/// ``AutoReceiver`` with no options on every character format a serial program can send:
/// 5-8 data bits, no, even or odd parity, 1 or 2 stop bits.
///
/// The payload decides the format when it is random in every data bit and the characters
/// follow each other directly: then each parity bit and each stop bit that a wrong format
/// reads as data comes out random, and each data bit that a wrong format reads as a parity
/// or stop bit breaks it, within a few characters. Here 120 random bytes masked to the
/// data bits, back to back (the burst's opening holds about 30 of them). What no payload
/// decides is left to ``FormatProofTests``: characters standing apart read the same with
/// one stop bit or two.
@Suite struct AutoReceiverFormatTests {
    static let formats: [FrameFormat] = (5...8).flatMap { bits in
        [Parity.none, .even, .odd].flatMap { parity in
            [1, 2].map { try! FrameFormat(dataBits: bits, parity: parity, stopBits: $0) }
        }
    }

    /// `count` random bytes masked to `format`'s data bits; for 7N2, whose line is 8N1's
    /// with the top bit set, random printable ASCII: the text decides it (``TopBitTests``).
    static func payload(_ count: Int, seed: UInt64, _ format: FrameFormat) -> [UInt8] {
        let random = TestSignals.randomBytes(count, seed: seed)
        if format.dataBits == 7, format.parity == .none, format.stopBits == 2 { return random.map { 0x20 + $0 % 95 } }
        return random.map { $0 & format.valueMask }
    }

    @Test("every character format decodes exactly with no options, and is named", arguments: formats)
    func everyFormat(_ format: FrameFormat) throws {
        let bytes = Self.payload(120, seed: UInt64(format.bitsPerFrame * 7 + format.dataBits), format)
        let signal = try TestSignals.encode(bytes, amplitude: 0.4, format: format, silence: 8000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(format): \(receiver.detections)")
        #expect(receiver.detections.map(\.format) == [format])
        let text = receiver.detections.first?.text ?? ""
        #expect(text.contains(", \(format))") && text.contains(": pin with"), "\(text)")
        let pins = receiver.detections.first?.options ?? ""
        #expect(pins.contains("--data-bits") == (format.dataBits != 8), "\(pins)")
        #expect(pins.contains("--parity \(format.parity.rawValue)") == (format.parity != .none), "\(pins)")
        #expect(pins.contains("--stop-bits 2") == (format.stopBits == 2), "\(pins)")
    }

    @Test(
        "a slow modem waits for enough characters to prove its format",
        arguments: [
            (ModemProfile.softmodem315, "6E1"), (.softmodem315, "5N2"), (.bell103, "7O1"),
            // Bell 103's narrow shift is often named by a trial decode, not measured.
            (.bell103, "8E1"), (.bell103, "8E2"), (.bell103, "7O2"), (.bell103, "7E2"),
            // At 126 baud ten characters after the preamble take 1.3 s: 48 blocks.
            (.softmodem126, "7N2"), (.softmodem126, "6E2"), (.softmodem126, "7O2"),
        ])
    func slowModem(profile: ModemProfile, name: String) throws {
        let format = try #require(Self.formats.first { $0.description == name })
        let bytes = Self.payload(60, seed: 21, format)
        let signal = try TestSignals.encode(bytes, profile: profile, amplitude: 0.4, format: format, silence: 8000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(profile.name) \(format): \(receiver.detections)")
        #expect(receiver.detections.map(\.format) == [format])
    }

    /// Bell 103 payloads whose 8N1 reading misread one character (a run of space bits, its
    /// start placed late), so the line bits proved 8N1 with an idle bit after every
    /// character: the 11-bit formats' own trials find the real one.
    static let elevenBitPayloads: [(String, [UInt8])] = [
        (
            "7O2",
            [
                20, 124, 66, 9, 0, 37, 120, 95, 81, 5, 69, 125, 50, 105, 24, 49, 67, 22, 108, 85, 23, 92, 104, 64, 113,
                24, 50, 74, 24, 11, 51, 92, 124, 49, 7, 92, 62, 110, 77, 91, 30, 22, 50, 29, 68, 79, 50, 97, 123, 57,
                35,
                53, 3, 48, 43, 4, 85, 78, 95, 96,
            ]
        ),
        (
            "8N2",
            [
                215, 136, 48, 241, 81, 39, 173, 31, 22, 13, 84, 81, 80, 210, 247, 84, 60, 79, 237, 34, 221, 185, 210,
                18,
                139, 84, 91, 112, 91, 116, 72, 246, 3, 194, 146, 148, 146, 50, 28, 176, 192, 71, 157, 167, 37, 47, 253,
                250, 78, 151, 163, 71, 187, 112, 248, 109, 94, 162, 4, 23,
            ]
        ),
    ]

    @Test("Bell 103 11-bit streams that read as gapped 8N1 are found as what they are", arguments: elevenBitPayloads)
    func elevenBitsReadAsGappedEightN1(name: String, bytes: [UInt8]) throws {
        let format = try #require(Self.formats.first { $0.description == name })
        let signal = try TestSignals.encode(bytes, profile: .bell103, amplitude: 0.891, format: format, silence: 4410)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(receiver.detections)")
        #expect(receiver.detections.map(\.format) == [format])
    }

    @Test("a weak 5E2 stream (12 dB SNR) still decodes exactly")
    func noisyUnusualFormat() throws {
        let format = try FrameFormat(dataBits: 5, parity: .even, stopBits: 2)
        let bytes = TestSignals.randomBytes(150, seed: 9).map { $0 & format.valueMask }
        var signal = try TestSignals.encode(bytes, amplitude: 0.3, format: format, silence: 8000)
        TestSignals.addNoise(&signal, snr: 12, signalPower: 0.045, seed: 4)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(receiver.detections)")
        #expect(receiver.detections.map(\.format) == [format])
    }
}
