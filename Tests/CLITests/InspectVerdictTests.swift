import BoardModels
import Foundation
import ModemDSP
import ModemTestSupport
import Testing

/// `inspect`'s verdict on recordings made to show one fault each, and its bad-input errors
/// (decode's, one line, no report left behind).
@Suite("inspect verdicts")
struct InspectVerdictTests {
    let message = Array("The quick brown fox jumps over the lazy dog 0123456789".utf8)

    /// Writes `samples`, inspects them with `options`, returns the verdict's hint ids.
    func verdict(_ samples: [Float], _ options: [String] = [], name: String) throws -> [String] {
        let dir = try CLI.temporaryDirectory()
        let wav = dir.appendingPathComponent("\(name).wav")
        let html = dir.appendingPathComponent("\(name).html")
        try InspectCLITests.writeWAV(samples, to: wav)
        _ = try InspectCLITests.inspect([wav.path, "-o", html.path] + options)
        return try InspectCLITests.hints(html)
    }

    func signal(_ profile: ModemProfile = .softmodem1225, amplitude: Float = 0.5) throws -> [Float] {
        try TestSignals.encode(message, profile: profile, amplitude: amplitude, silence: 22_050)
    }

    @Test func silence() throws {
        #expect(try verdict([Float](repeating: 0, count: 44_100), name: "silence") == ["silence"])
    }

    @Test func noiseOnly() throws {
        var noise = [Float](repeating: 0, count: 88_200)
        TestSignals.addNoise(&noise, snr: 0, signalPower: 0.01, seed: 7)
        let hints = try verdict(noise, name: "noise")
        #expect(hints == ["nothing-decoded"])
    }

    @Test func clipped() throws {
        let loud = try signal(amplitude: 0.5).map { max(-1, min(1, $0 * 4)) }
        #expect(try verdict(loud, name: "clipped").contains("clipping"))
    }

    @Test func wrongProfile() throws {
        // inspect detects the profile unless one is named: name the wrong one.
        let hints = try verdict(try signal(.webjack1225), ["--profile", "softmodem-1225"], name: "wrong")
        #expect(hints.contains("wrong-profile"))
        #expect(!hints.contains("ok"))
        // The same recording with the profile it needs is fine.
        #expect(try verdict(try signal(.webjack1225), ["--profile", "webjack-1225"], name: "right") == ["ok"])
    }

    @Test func levelTooLow() throws {
        #expect(try verdict(try signal(amplitude: 0.004), name: "quiet").contains("level-low"))
    }

    @Test func humAndDC() throws {
        var s = try signal(amplitude: 0.3)
        for i in s.indices { s[i] += 0.2 * Float(sin(2 * Double.pi * 50 * Double(i) / 44_100)) + 0.05 }
        let hints = try verdict(s, name: "hum")
        #expect(hints.contains("hum"))
        #expect(hints.contains("dc"))
    }

    @Test func offFrequencySender() throws {
        let off = ModemProfile(name: "off", baud: 1225, mark: 7350 * 1.03, space: 4900 * 1.03)
        #expect(try verdict(try signal(off), ["--profile", "softmodem-1225"], name: "off").contains("off-frequency"))
    }

    /// Background noise whose gain drops to a quarter at each burst's end and recovers over
    /// a second, as an automatic gain control does.
    @Test func agcPumping() throws {
        let burst = try TestSignals.encode(message, amplitude: 0.5)
        let gap = 66_150
        var s: [Float] = []
        for _ in 0..<4 {
            s += burst
            for i in 0..<gap { s.append(Float(0.25 + 0.75 * min(1, Double(i) / 44_100))) }
        }
        var noise = [Float](repeating: 0, count: s.count)
        TestSignals.addNoise(&noise, snr: 0, signalPower: 1e-4, seed: 3)
        for i in s.indices {
            // Burst samples get the noise as it is; gap entries hold the gain applied to it.
            s[i] = i % (burst.count + gap) < burst.count ? s[i] + noise[i] : s[i] * noise[i]
        }
        #expect(try verdict(s, name: "agc").contains("agc"))
    }

    /// Each burst fading to a fifth of its level by its end, as a phone's noise suppression
    /// does to a steady tone.
    @Test func noiseSuppressionFade() throws {
        let burst = try TestSignals.encode(message, amplitude: 0.5, silence: 11_025)
        let faded = burst.enumerated().map { i, x in
            x * Float(1 - 0.8 * min(1, max(0, Double(i - 11_025) / Double(burst.count - 22_050))))
        }
        #expect(try verdict(faded + faded, name: "fade").contains("fading"))
    }

    @Test func hiJackBurstHasAnEye() throws {
        let dir = try CLI.temporaryDirectory()
        let wav = dir.appendingPathComponent("hijack.wav").path
        let html = dir.appendingPathComponent("hijack.html")
        let encoded = try CLI.softmodem(["encode", "--profile", "hijack", "--text", "eye test", "-o", wav])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        _ = try InspectCLITests.inspect(["--profile", "hijack", wav, "-o", html.path])
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("alt=\"eye of the bit cells\""))
        #expect(page.contains("eye test"))
        #expect(try InspectCLITests.hints(html) == ["ok"])
    }

    @Test func badInputLeavesNoReport() throws {
        let dir = try CLI.temporaryDirectory()
        let html = dir.appendingPathComponent("r.html")
        let missing = try CLI.softmodem(["inspect", "/nonexistent/x.wav", "-o", html.path])
        BadInputTests.expectOneLine(missing, status: 1, mentioning: ["/nonexistent/x.wav", "no such file"])
        let text = dir.appendingPathComponent("text.wav")
        try "this is not audio\n".write(to: text, atomically: true, encoding: .utf8)
        let sample = CLI.packageRoot.appendingPathComponent("samples/hello-softmodem-1225.wav").path
        // A good file then a bad one: still no report.
        let bad = try CLI.softmodem(["inspect", sample, text.path, "-o", html.path])
        #expect(bad.status == 1)
        #expect(bad.stderr.split(separator: "\n").count == 1)
        BadInputTests.expectOneLine(
            try CLI.softmodem(["inspect", sample, "-o", html.path, "--profile", "nope"]), status: 2,
            mentioning: ["nope"])
        BadInputTests.expectOneLine(try CLI.softmodem(["inspect", sample]), status: 2, mentioning: ["output"])
        BadInputTests.expectOneLine(
            try CLI.softmodem(["inspect", sample, "-o", "/nonexistent/dir/r.html"]), status: 1,
            mentioning: ["/nonexistent/dir/r.html"])
        #expect(!FileManager.default.fileExists(atPath: html.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("partial") }.isEmpty)
    }
}
