import Foundation
import ModemDSP
import ModemTestSupport
import Testing

extension ForeignSenderTests {
    /// A known modem's tones sent the other way round (minimodem with `-M` and `-S` swapped):
    /// a convention names mark for those tones, but this sender's preamble is on the other
    /// tone, and the burst as a whole proves it. Read by the convention, Bell 202's tones with
    /// mark on 2200 Hz came out as 257 bytes of garbage with 7 framing errors (exit 1).
    static let swappedToneCases: [[String]] = [
        ["-M", "2200", "-S", "1200", "1200"], ["-R", "22050", "-M", "2200", "-S", "1200", "1200"],
        ["-R", "8000", "-M", "2200", "-S", "1200", "1200"], ["-M", "1070", "-S", "1270", "300"],
        ["-M", "2025", "-S", "2225", "300"], ["-R", "44100", "-M", "4900", "-S", "7350", "1225"],
        ["-R", "48000", "-M", "4900", "-S", "7350", "1225"], ["-R", "44100", "-M", "1603", "-S", "3289", "315"],
        ["--volume", "0.01", "-M", "2200", "-S", "1200", "1200"],
    ]

    @Test("a known modem's tones the other way round decode exactly", arguments: swappedToneCases)
    func swappedTones(arguments: [String]) throws {
        guard let r = try Self.decodeMinimodem(arguments) else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.text, "got \(r.stdout.count) bytes: \(r.stderr)")
    }

    /// The verbose detection names the mark the burst proved, not the convention's profile
    /// (whose pin would read the burst inverted).
    @Test func swappedTonesAreNamedAsTheBurstProvedThem() throws {
        guard let r = try Self.decodeMinimodem(["-M", "2200", "-S", "1200", "1200"], options: ["-v"]) else { return }
        #expect(r.stdout == Self.text)
        #expect(r.stderr.contains("mark proven by the burst"), "\(r.stderr)")
        #expect(!r.stderr.contains("--profile bell202"), "\(r.stderr)")
    }

    /// The convention's own senders with no preamble and a first character that opens on
    /// space for two bits or more (its start bit and low data bits of 0): read both ways, the
    /// burst keeps the convention (a tie keeps it too), byte for byte.
    @Test(arguments: [0x00, 0x02, 0x54, 0x80] as [UInt8], ["0", "1"])
    func noPreambleAndSpaceFirstKeepsTheConvention(first: UInt8, preamble: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.wav").path
        let bytes = Data([first, 0x01, 0x02] + Array("Hello".utf8))
        let e = try CLI.softmodem(["encode", "--preamble", preamble, "--postamble", "0", "-o", path], stdin: bytes)
        #expect(e.status == 0, "\(e.stderr)")
        let r = try CLI.softmodem(["decode", path])
        #expect(r.stdout == bytes, "got \(Array(r.stdout)): \(r.stderr)")
        #expect(r.status == 0, "\(r.stderr)")
    }
}

extension ForeignSenderTests {
    /// A known modem's tones the other way round with no preamble: the burst opens on a
    /// start bit, the convention's mark, so only the convention's broken characters in the
    /// burst's first blocks doubt it (``AutoReceiver/framesBadly``). Read by the convention,
    /// these came out as garbage with 7 to 124 framing errors (exit 1). The text starts at its
    /// title: its twenty leading spaces read cleanly inverted, so the first blocks cannot
    /// doubt the convention there (see docs/detection.md).
    @Test(
        arguments: [
            ["--baud", "1225", "--mark", "4900", "--space", "7350", "--rate", "44100"],
            ["--baud", "1200", "--mark", "2200", "--space", "1200", "--rate", "48000"],
            ["--baud", "2450", "--mark", "4900", "--space", "7350", "--rate", "48000"],
        ], [false, true])
    func swappedTonesWithNoPreamble(modem: [String], binary: Bool) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.wav").path
        var random = SeededGenerator(seed: 29)
        let bytes =
            binary
            ? Data((0..<120).map { _ in UInt8.random(in: 0...255, using: &random) }) : Data(Self.text.dropFirst(20))
        let e = try CLI.softmodem(
            ["encode"] + modem + ["--preamble", "0", "--postamble", "0", "-o", path], stdin: bytes)
        #expect(e.status == 0, "\(e.stderr)")
        let r = try CLI.softmodem(["decode", path])
        #expect(r.stdout == bytes, "got \(r.stdout.count) bytes: \(r.stderr)")
        #expect(r.status == 0, "\(r.stderr)")
    }
}
