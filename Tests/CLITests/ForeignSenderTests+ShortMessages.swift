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
}
