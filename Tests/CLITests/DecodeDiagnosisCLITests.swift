import BoardModels
import Foundation
import ModemAudioIO
import ModemDSP
import ModemTestSupport
import RealModule
import Testing

/// `decode` with no options as a new user runs it: when nothing decodes, one line on stderr
/// says what the input holds (exit 1); a named profile that does not match the signal
/// prints no bytes and names what the signal looks like (exit 1).
@Suite("decode: what the input holds when nothing decodes")
struct DecodeDiagnosisCLITests {
    static func wav(_ samples: [Float], rate: Int = 44_100) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent("input.wav").path
        let writer = try SoundFileWriter(path: path, sampleRate: rate, channels: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0, channels: 1) }
        try writer.finish()
        return path
    }

    static func expectOneLine(_ r: CLI.Result, mentioning parts: [String]) {
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty, "\(r.stdout.count) bytes on stdout")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        for part in parts { #expect(r.stderr.contains(part), "\(r.stderr)") }
    }

    @Test("a named profile that does not match: no bytes, and the profile that decodes it")
    func wrongProfile() throws {
        let path = CLI.packageRoot.appendingPathComponent("samples/all-bytes-softmodem-2450.wav").path
        let r = try CLI.softmodem(["decode", "--profile", "softmodem-1225", path])
        Self.expectOneLine(r, mentioning: ["does not match softmodem-1225", "decode with --profile softmodem-2450"])
    }

    @Test("webjack-1225 named for a softmodem-1225 recording: no bytes, softmodem-1225 named")
    func swappedTones() throws {
        let path = CLI.packageRoot.appendingPathComponent("samples/hello-softmodem-1225.wav").path
        let r = try CLI.softmodem(["decode", "--profile", "webjack-1225", path])
        Self.expectOneLine(r, mentioning: ["does not match webjack-1225", "--profile softmodem-1225"])
    }

    @Test(
        "a matching profile and the detection both still print every byte, exit 0",
        arguments: [["--profile", "softmodem-2450"], []])
    func rightProfile(options: [String]) throws {
        let root = CLI.packageRoot
        let r = try CLI.softmodem(
            ["decode"] + options + [root.appendingPathComponent("samples/all-bytes-softmodem-2450.wav").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (try Data(contentsOf: root.appendingPathComponent("samples/all-bytes-softmodem-2450.bin"))))
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }

    @Test("noise, a lone tone, quiet sound and silence each get their one line")
    func nothingDecoded() throws {
        var noise = [Float](repeating: 0, count: 88_200)
        TestSignals.addNoise(&noise, snr: 0, signalPower: 0.02, seed: 9)
        Self.expectOneLine(
            try CLI.softmodem(["decode", try Self.wav(noise)]), mentioning: ["nothing decoded: no modem tones"])

        let tone = (0..<88_200).map { 0.3 * Float(Double.sin(2 * Double.pi * 1_000 * Double($0) / 44_100)) }
        Self.expectOneLine(
            try CLI.softmodem(["decode", try Self.wav(tone)]), mentioning: ["the strongest tone is 1000 Hz"])

        let quiet = noise.map { $0 * 1e-4 }
        Self.expectOneLine(try CLI.softmodem(["decode", try Self.wav(quiet)]), mentioning: ["too quiet"])
    }

    /// Fails when a HiJack frame that noise happened to form is printed (one in about three
    /// seconds of loud white noise passed start, parity and stop checks).
    @Test("--profile hijack on loud noise or an FSK signal: no bytes, one line")
    func hijackOnSomethingElse() throws {
        var noise = [Float](repeating: 0, count: 441_000)
        TestSignals.addNoise(&noise, snr: 0, signalPower: 0.09, seed: 12)
        Self.expectOneLine(
            try CLI.softmodem(["decode", "--profile", "hijack", try Self.wav(noise)]),
            mentioning: ["nothing decoded: no modem tones"])
        let fsk = CLI.packageRoot.appendingPathComponent("samples/all-bytes-softmodem-2450.wav").path
        Self.expectOneLine(try CLI.softmodem(["decode", "--profile", "hijack", fsk]), mentioning: ["nothing decoded"])
    }

    @Test("a hard-clipped recording still decodes every byte, with no complaint")
    func clipping() throws {
        let bytes = TestSignals.randomBytes(200, seed: 3)
        let signal = try TestSignals.encode(bytes, amplitude: 0.9, silence: 4000).map {
            max(-0.5, min(0.5, $0 * 4)) / 0.5
        }
        let r = try CLI.softmodem(["decode", try Self.wav(signal)])
        #expect([UInt8](r.stdout) == bytes, "\(r.stderr)")
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }
}
