import Foundation
import ModemTestSupport
import Testing

/// 7 data bits or 8 from minimodem: a line whose every character has its top bit set is a
/// 7-bit line too, so only the rest of the burst or its characters can decide. Japanese in
/// UTF-8 (every byte 0x80 or above) came out as control codes and 7N2 text at 300 baud as
/// text with the top bit set, both with exit status 0.
extension ForeignSenderTests {
    static let japanese = Data("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で泣いていた。".utf8)

    @Test("UTF-8 with every byte 0x80 or above is 8N1", arguments: [["1200"], ["300"], ["-R", "44100", "1200"]])
    func japaneseTextIsEightBits(arguments: [String]) throws {
        guard let r = try Self.decodeMinimodem(arguments, text: Self.japanese) else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.japanese, "got \(Array(r.stdout.prefix(8))): \(r.stderr)")
    }

    @Test("7-bit text with two stop bits is 7 bits", arguments: [["1200"], ["300"]])
    func sevenBitTextWithTwoStopBits(arguments: [String]) throws {
        guard let r = try Self.decodeMinimodem(["-7", "--stopbits", "2"] + arguments) else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.text, "got \(Array(r.stdout.prefix(8))): \(r.stderr)")
    }

    /// Random bytes with the top bit set read as well as 7N2 binary: nothing printed, one
    /// line with both pins, exit status 1.
    @Test("binary with every top bit set is not printed", arguments: [["1200"], ["300"]])
    func binaryWithTheTopBitSet(arguments: [String]) throws {
        let bytes = Data(CLI.randomBytes(150, seed: 11).map { $0 | 0x80 })
        guard let r = try Self.decodeMinimodem(arguments, text: bytes) else { return }
        #expect(r.stdout.isEmpty, "printed \(Array(r.stdout.prefix(8)))")
        #expect(r.status == 1)
        #expect(r.stderr.contains("7 data bits or 8 is unproven"), "\(r.stderr)")
        #expect(r.stderr.contains("--data-bits 7"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
