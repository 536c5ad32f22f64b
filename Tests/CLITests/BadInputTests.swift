import Foundation
import ModemTestSupport
import Testing

/// Every bad input gives exactly one line on stderr naming the problem, and exit status 2
/// (usage) or 1 (runtime): never a crash, a trap or a hang.
@Suite("bad input")
struct BadInputTests {
    static func expectOneLine(
        _ r: CLI.Result, status: Int32, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(r.status == status, "exit \(r.status), stderr: \(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "want one line, got: \(r.stderr)", sourceLocation: sourceLocation)
        for w in words {
            #expect(
                r.stderr.lowercased().contains(w.lowercased()), "'\(w)' missing from: \(r.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func missingFile() throws {
        let r = try CLI.softmodem(["decode", "/nonexistent/x.wav"])
        Self.expectOneLine(r, status: 1, mentioning: ["/nonexistent/x.wav", "no such file"])
    }

    @Test func directory() throws {
        let r = try CLI.softmodem(["decode", "/tmp"])
        Self.expectOneLine(r, status: 1, mentioning: ["/tmp", "directory"])
    }

    @Test func zeroLengthFile() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("empty.wav").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        Self.expectOneLine(try CLI.softmodem(["decode", path]), status: 1, mentioning: [path, "empty"])
        Self.expectOneLine(
            try CLI.softmodem(["decode", "--raw", "--rate", "44100", path]), status: 1, mentioning: [path, "empty"])
    }

    @Test func notAudio() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("text.wav").path
        try "this is not audio\n".write(toFile: path, atomically: true, encoding: .utf8)
        Self.expectOneLine(
            try CLI.softmodem(["decode", path]), status: 1, mentioning: [path, "not a supported audio file"])
        Self.expectOneLine(
            try CLI.softmodem(["decode", "-"], stdin: Data("garbage".utf8)), status: 1, mentioning: ["stdin", "--raw"])
    }

    @Test func headerOnlyAndTruncated() throws {
        let dir = try CLI.temporaryDirectory()
        let full = dir.appendingPathComponent("full.wav").path
        #expect(try CLI.softmodem(["encode", "--text", "truncate me please", "-o", full]).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let header = dir.appendingPathComponent("header.wav").path
        try data.prefix(30).write(to: URL(fileURLWithPath: header))
        Self.expectOneLine(try CLI.softmodem(["decode", header]), status: 1, mentioning: [header])
        let cut = dir.appendingPathComponent("cut.wav").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let r = try CLI.softmodem(["decode", cut])
        #expect(r.status == 1)
        #expect(r.stderr.contains("truncated") && r.stderr.contains(cut))
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(!r.stdout.isEmpty, "what is there is still decoded")
    }

    @Test func allSilent() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("silent.wav").path
        #expect(try CLI.softmodem(["encode", "--text", "", "--silence", "1", "-o", path]).status == 0)
        Self.expectOneLine(try CLI.softmodem(["decode", path]), status: 1, mentioning: [path, "silent"])
    }

    @Test(
        "impossible options are usage errors (exit 2)",
        arguments: [
            (["decode", "--mark", "4900", "--space", "4900", "x.wav"], "must differ"),
            (["encode", "--mark", "30000", "--text", "x", "-o", "/dev/null"], "half the sample rate"),
            (["encode", "--rate", "4000", "--text", "x", "-o", "/dev/null"], "outside 8000-192000"),
            (["encode", "--rate", "500000", "--text", "x", "-o", "/dev/null"], "outside 8000-192000"),
            (
                ["decode", "--profile", "softmodem-1225", "--raw", "--rate", "8000", "/dev/null"],
                "half the sample rate"
            ),
            (["decode", "--profile", "nosuch", "x.wav"], "'nosuch' is invalid for '--profile"),
            (["decode", "--data-bits", "9", "x.wav"], "data bits"),
            (["decode", "--parity", "maybe", "x.wav"], "parity"),
            (["decode", "--raw", "x.raw"], "--rate"),
            (["decode", "--raw", "--rate", "44100", "--format", "mp3", "x.raw"], "'mp3' is invalid for '--format"),
            (["encode", "--amplitude", "3", "--text", "x", "-o", "/dev/null"], "amplitude"),
            (["encode", "--channels", "surround", "--text", "x", "-o", "/dev/null"], "--channels"),
            (["encode", "--text", "x", "-o", "out.mp3"], "extension"),
            (["decode", "--bogus-option"], "bogus"),
            (["frobnicate"], "frobnicate"),
            (["decode", "--baud", "nan", "x.wav"], "baud"),
        ])
    func usageErrors(arguments: [String], mention: String) throws {
        Self.expectOneLine(try CLI.softmodem(arguments), status: 2, mentioning: [mention])
    }

    @Test func channelOutOfRange() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("mono.wav").path
        #expect(try CLI.softmodem(["encode", "--text", "x", "-o", path]).status == 0)
        Self.expectOneLine(try CLI.softmodem(["decode", "--channel", "3", path]), status: 2, mentioning: ["channel"])
    }

    @Test func wrongRateForProfileInFile() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("low.wav").path
        #expect(
            try CLI.softmodem(["encode", "--profile", "softmodem-315", "--rate", "8000", "--text", "x", "-o", path])
                .status == 0)
        Self.expectOneLine(
            try CLI.softmodem(["decode", "--profile", "softmodem-1225", path]), status: 2,
            mentioning: [path, "half the sample rate"])
    }

    @Test("random garbage and mutated WAV files never crash", arguments: 0..<12)
    func fuzzedFiles(seed: Int) throws {
        let dir = try CLI.temporaryDirectory()
        let good = dir.appendingPathComponent("good.wav").path
        #expect(try CLI.softmodem(["encode", "--text", "fuzz", "-o", good]).status == 0)
        var data = try Data(contentsOf: URL(fileURLWithPath: good))
        let noise = CLI.randomBytes(64, seed: UInt64(seed))
        if seed % 3 == 0 {
            data = CLI.randomBytes(4000, seed: UInt64(seed))
        } else {
            for i in 0..<32 { data[Int(noise[i]) % 60] = noise[32 + i] }  // mangle the header
        }
        let path = dir.appendingPathComponent("fuzz.wav").path
        try data.write(to: URL(fileURLWithPath: path))
        let r = try CLI.softmodem(["decode", path], timeout: 30)
        #expect([0, 1, 2].contains(r.status), "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count <= 1)
    }
}
