import Foundation
import ModemTestSupport
import Testing

/// Inputs that crashed or misreported once (from fuzzing and mutated recordings): each
/// stays here with its input so it cannot come back.
@Suite("hardening regressions")
struct HardeningTests {
    /// Exit 0 or 1, no signal, at most one line on stderr when it fails.
    static func expectClean(_ r: CLI.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            [0, 1].contains(r.status), "\(what): exit \(r.status), stderr: \(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test(
        "a float WAV with NaN, infinite and near-limit samples: decode -v and --protocol run to the end",
        arguments: [Float.nan, .infinity, .greatestFiniteMagnitude])
    func nonFiniteFloatWAV(bad: Float) throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("float.wav").path
        #expect(
            try CLI.softmodem(["encode", "--float", "--text", "Hello, damaged float file", "-o", path]).status == 0)
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = try #require(data.range(of: Data("data".utf8))).upperBound + 4
        let count = (data.count - start) / 4
        for (at, length) in [(count / 5, 1), (count / 4, 3), (count / 3, 50), (count / 2, 600)] {
            for i in at..<min(count, at + length) {
                let bits = (i % 2 == 0 ? bad : -bad).bitPattern.littleEndian
                withUnsafeBytes(of: bits) { data.replaceSubrange((start + 4 * i)..<(start + 4 * i + 4), with: $0) }
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
        for arguments in [
            ["decode", "-v", path], ["decode", "--protocol", "line", "--json", path],
            ["decode", "-v", "--protocol", "line", path],
        ] {
            let r = try CLI.softmodem(arguments, timeout: 60)
            // Whatever decodes (the damage may leave nothing): a normal exit, never a signal;
            // exit 1 only with the one line that says nothing decoded or that characters
            // were damaged.
            let nothing = r.stderr.contains("nothing decoded")
            let damaged = r.stderr.contains("damaged character(s) dropped")
            #expect(
                r.status == 0 || (r.status == 1 && (nothing || damaged)),
                "\(arguments): exit \(r.status), stderr: \(r.stderr)")
        }
    }

    @Test("junk that starts like MP3: one line of softmodem's own on stderr naming MPEG, no libmpg123 noise")
    func mpegJunk() throws {
        let dir = try CLI.temporaryDirectory()
        // A frame sync, then 100 kB of noise: libmpg123 gives up after 64 kB and says so.
        for (name, head) in [
            ("sync.mp3", [0xFF, 0xFB, 0x90, 0x00] as [UInt8]), ("tag.mp3", Array("ID3\u{3}\0\0\0\0\0\0".utf8)),
        ] {
            let path = dir.appendingPathComponent(name).path
            try (Data(head) + CLI.randomBytes(100_000, seed: 7)).write(to: URL(fileURLWithPath: path))
            for arguments in [
                ["decode", path], ["decode", "-v", path], ["decode", "--protocol", "line", "--json", path],
            ] {
                let r = try CLI.softmodem(arguments, timeout: 60)
                #expect(r.status == 1, "\(arguments): exit \(r.status)")
                let lines = r.stderr.split(separator: "\n")
                #expect(
                    lines.count == 1 && lines.allSatisfy { $0.hasPrefix("softmodem: ") }, "\(arguments): \(r.stderr)")
                #expect(!r.stderr.contains("does not exist") && r.stderr.contains(path), "\(r.stderr)")
            }
        }
        let sync = dir.appendingPathComponent("sync.mp3").path
        #expect(try CLI.softmodem(["decode", sync]).stderr.contains("MPEG"))
    }

    /// Crash inputs found by the fuzz targets in fuzz/ (fuzz/Regressions/soundfile), run
    /// through the command line the way a user would.
    @Test("fuzz-found sound files decode without a crash, with one line on stderr at most")
    func fuzzRegressions() throws {
        let folder = CLI.packageRoot.appendingPathComponent("fuzz/Regressions/soundfile")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in files.sorted() {
            let path = folder.appendingPathComponent(name).path
            for arguments in [
                ["decode", path], ["decode", "-v", path], ["decode", "--protocol", "line", "--json", path],
            ] {
                let r = try CLI.softmodem(arguments, timeout: 60)
                Self.expectClean(r, "\(arguments)")
                if r.status != 0 && !arguments.contains("-v") {
                    #expect(r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
                }
            }
        }
    }
}
