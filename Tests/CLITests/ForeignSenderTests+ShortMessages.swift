import Foundation
import ModemTestSupport
import Testing

/// Messages of a character or two from minimodem: at 1200 baud and 48 kHz "hi" is 960
/// samples, less than one of detection's 2,048-sample blocks, and was never looked at
/// ("nothing decoded" where `--profile bell202` reads it).
extension ForeignSenderTests {
    @Test(
        "a message shorter than a block decodes with no options",
        arguments: [
            ("hi", ["1200"]), ("OK", ["1200"]), ("A", ["1200"]), ("\u{0}\u{1}", ["1200"]), ("U", ["1200"]),
            ("hi", ["-R", "44100", "1200"]), ("hi", ["300"]),
        ])
    func messageShorterThanABlock(message: String, arguments: [String]) throws {
        let bytes = Data(message.utf8)
        guard let r = try Self.decodeMinimodem(arguments, text: bytes) else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == bytes, "got \(Array(r.stdout)): \(r.stderr)")
    }

    /// One character whose first data bits are 0, after minimodem's leader of two mark bits
    /// at 300 baud: read a bit late it is still a valid frame (0x00 as 0x80, 0x80 as 0xc0,
    /// 0xc0 as 0xe0), and that alignment scored as well, so it came out with status 0.
    @Test(
        "one character starting with zeros after a two-bit leader is read from its start",
        arguments: [
            (0x00, "22050"), (0x00, "44100"), (0x00, "48000"), (0x80, "22050"), (0x80, "48000"), (0xC0, "48000"),
        ]
            as [(UInt8, String)])
    func leadingZerosAfterAShortLeader(byte: UInt8, rate: String) throws {
        let bytes = Data([byte])
        guard let r = try Self.decodeMinimodem(["-R", rate, "300"], text: bytes) else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == bytes, "got \(Array(r.stdout)): \(r.stderr)")
    }

    /// Every byte value alone, after minimodem's own leader: each decodes exactly or is
    /// refused with nothing printed. `exactAtLeast` keeps the test from passing by refusing
    /// everything (measured: 243 of 256 at 300 baud, 48 kHz; 115 at 1200 baud, 22.05 kHz,
    /// where a lone Bell 202 character measures under the Eb/N0 a short burst needs).
    @Test(
        "no single character from minimodem decodes as a wrong byte",
        arguments: [(["-R", "48000", "300"], 230), (["-R", "22050", "1200"], 100)] as [([String], Int)])
    func singleCharactersAreNeverWrong(arguments: [String], exactAtLeast: Int) throws {
        var exact = 0
        for value in 0...255 {
            let bytes = Data([UInt8(value)])
            guard let r = try Self.decodeMinimodem(arguments, text: bytes) else { return }
            if r.status == 0 {
                #expect(r.stdout == bytes, "0x\(String(value, radix: 16)): got \(Array(r.stdout)): \(r.stderr)")
                exact += r.stdout == bytes ? 1 : 0
            } else {
                #expect(
                    r.stdout.isEmpty, "0x\(String(value, radix: 16)): got \(Array(r.stdout)) with status \(r.status)")
            }
        }
        #expect(exact >= exactAtLeast, "\(exact) of 256 exact")
    }
}
