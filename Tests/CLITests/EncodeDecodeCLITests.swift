import Foundation
import ModemTestSupport
import Testing

@Suite("encode and decode on the command line")
struct EncodeDecodeCLITests {
    @Test(
        "encode | decode through a pipe, all byte values",
        arguments: ["softmodem-1225", "softmodem-2450", "webjack-1225", "softmodem-315"])
    func pipeRoundTrip(profile: String) throws {
        let bytes = Data((0...255).map { UInt8($0) })
        let encoded = try CLI.softmodem(["encode", "--profile", profile, "-o", "-"], stdin: bytes)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout.starts(with: Array("RIFF".utf8)))
        let decoded = try CLI.softmodem(["decode", "--profile", profile, "-"], stdin: encoded.stdout)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == bytes)
        #expect(decoded.stderr.isEmpty, "quiet by default")
    }

    @Test("file formats written by libsndfile decode", arguments: ["wav", "flac", "aiff", "caf", "au", "ogg"])
    func fileFormats(ext: String) throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("x.\(ext)").path
        let text = "format \(ext) works"
        let encoded = try CLI.softmodem(["encode", "--text", text, "--rate", "48000", "-o", path])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let decoded = try CLI.softmodem(["decode", path])
        #expect(decoded.stdoutText == text, "\(decoded.stderr)")
    }

    @Test("stereo: the channel carrying the signal is found; --channel picks one")
    func channels() throws {
        let dir = try CLI.temporaryDirectory()
        for layout in ["left", "right", "both"] {
            let path = dir.appendingPathComponent("\(layout).wav").path
            #expect(
                try CLI.softmodem(["encode", "--text", "stereo \(layout)", "--channels", layout, "-o", path]).status
                    == 0)
            #expect(try CLI.softmodem(["decode", path]).stdoutText == "stereo \(layout)")
        }
        let right = dir.appendingPathComponent("right.wav").path
        #expect(try CLI.softmodem(["decode", "--channel", "2", right]).stdoutText == "stereo right")
        #expect(try CLI.softmodem(["decode", "--channel", "1", right]).stdout.isEmpty)
    }

    @Test("headerless raw input in every sample format", arguments: ["s16le", "s8", "u8", "f32le", "s32le"])
    func rawFormats(format: String) throws {
        let dir = try CLI.temporaryDirectory()
        let wav = dir.appendingPathComponent("a.wav").path
        let raw = dir.appendingPathComponent("a.raw").path
        #expect(try CLI.softmodem(["encode", "--text", "raw \(format)", "--rate", "22050", "-o", wav]).status == 0)
        guard let sox = CLI.which("sox") else {
            Issue.record("sox missing: make test installs it")
            return
        }
        let encoding: [String]
        switch format {
        case "s16le": encoding = ["-e", "signed", "-b", "16"]
        case "s8": encoding = ["-e", "signed", "-b", "8"]
        case "u8": encoding = ["-e", "unsigned", "-b", "8"]
        case "s32le": encoding = ["-e", "signed", "-b", "32"]
        default: encoding = ["-e", "floating-point", "-b", "32"]
        }
        let converted = try CLI.run(sox, [wav, "-t", "raw", "-L"] + encoding + [raw])
        #expect(converted.status == 0, "\(converted.stderr)")
        let decoded = try CLI.softmodem([
            "decode", "--raw", "--rate", "22050", "--format", format, "--channels", "1", raw,
        ])
        #expect(decoded.stdoutText == "raw \(format)", "\(decoded.stderr)")
    }

    @Test("-v reports each burst on stderr, stdout stays data only")
    func verboseBursts() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("v.wav").path
        #expect(try CLI.softmodem(["encode", "--text", "burst", "--amplitude=-20", "-o", path]).status == 0)
        let r = try CLI.softmodem(["decode", "-v", path])
        #expect(r.stdoutText == "burst")
        #expect(r.stderr.contains("burst at 0.1"))
        #expect(r.stderr.contains("5 bytes"))
        #expect(r.stderr.contains("level -2"))  // -20 dBFS peak reported as about -21 dBFS
        func measured(_ tone: String) -> Double? {
            guard let range = r.stderr.range(of: "\(tone) ") else { return nil }
            return Double(r.stderr[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(abs((measured("mark") ?? 0) - 7350) < 74, "measured tones within 1 %")
        #expect(abs((measured("space") ?? 0) - 4900) < 49, "measured tones within 1 %")
        #expect(r.stderr.contains("0 framing errors"))
    }

    @Test("a negative level is taken as users type it: --amplitude -20, not only --amplitude=-20")
    func negativeAmplitudeAsSeparateArgument() throws {
        let dir = try CLI.temporaryDirectory()
        let spaced = dir.appendingPathComponent("spaced.wav").path
        let joined = dir.appendingPathComponent("joined.wav").path
        let a = try CLI.softmodem(["encode", "--amplitude", "-20", "--text", "level", "-o", spaced])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(try CLI.softmodem(["encode", "--amplitude=-20", "--text", "level", "-o", joined]).status == 0)
        let same = try FileManager.default.contentsEqual(atPath: spaced, andPath: joined)
        #expect(same, "both spellings write the same file")
        #expect(try CLI.softmodem(["decode", spaced]).stdoutText == "level")
    }

    /// `decode --squelch -5` failed with "Missing value for '--squelch <db>'": the argument
    /// parser took -5 for an option. Both spellings must decode alike, and a squelch under
    /// the default must still decode a clean burst.
    @Test("a negative squelch is taken as users type it: --squelch -5, not only --squelch=-5")
    func negativeSquelchAsSeparateArgument() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("squelch.wav").path
        #expect(try CLI.softmodem(["encode", "--text", "quiet", "-o", file]).status == 0)
        let spaced = try CLI.softmodem(["decode", "--squelch", "-5", file])
        #expect(spaced.status == 0 && spaced.stdoutText == "quiet", "\(spaced.stderr)")
        let joined = try CLI.softmodem(["decode", "--squelch=-5", file])
        #expect(joined.stdout == spaced.stdout && joined.status == spaced.status)
        // Out of range either way: one usage line, status 2.
        let low = try CLI.softmodem(["decode", "--squelch", "-30", file])
        #expect(low.status == 2 && low.stderr.contains("--squelch must be between"), "\(low.stderr)")
        let rx = try CLI.softmodem(["rx", "--squelch", "-30", "--device", "nosuch"])
        #expect(rx.status == 2 && rx.stderr.contains("--squelch must be between"), "\(rx.stderr)")
    }

    @Test("profile overrides and frame options")
    func overrides() throws {
        let args = [
            "--baud", "1000", "--mark", "3000", "--space", "2000", "--data-bits", "7", "--parity", "even",
            "--stop-bits", "2",
        ]
        let encoded = try CLI.softmodem(["encode", "--text", "7E2 custom"] + args + ["-o", "-"])
        let decoded = try CLI.softmodem(["decode"] + args + ["-"], stdin: encoded.stdout)
        #expect(decoded.stdoutText == "7E2 custom", "\(decoded.stderr)")
    }
}
