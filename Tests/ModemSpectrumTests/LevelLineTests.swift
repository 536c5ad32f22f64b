import CommandLineText
import ModemDSP
import ModemSpectrum
import Testing

@Suite("Level meter line: fitted to the terminal")
struct LevelLineTests {
    /// The reading from the middle of a long clean burst, and the one of a wrong profile.
    static func readings() throws -> (ok: LevelReading, wrong: LevelReading) {
        let ok = LevelRecording.readings(
            try LevelRecording.make(bytes: 300, amplitude: 0.5, snr: 20, lead: 0.2, trail: 0))
        let wrong = LevelRecording.readings(
            try LevelRecording.make(profile: .bell202, bytes: 300, snr: 30, lead: 0.2, trail: 0))
        return (try #require(ok.last), try #require(wrong.last))
    }

    @Test("one line, one column short of the width, advice kept", arguments: [120, 80, 40])
    func fits(columns: Int) throws {
        let (ok, wrong) = try Self.readings()
        let line = LevelLine(profileName: "softmodem-1225")
        for r in [ok, wrong] {
            let text = line.render(r, columns: columns)
            #expect(text.count <= columns - 1, "\(text.count) columns: \(text)")
            #expect(!text.contains("\n") && !text.contains("\r"))
            #expect(text.contains(r.verdict == .ok ? "ok" : "no softmodem-1225 tones"), "\(text)")
        }
        let text = line.render(ok, columns: columns)
        #expect(text.contains("SNR 19.") || text.contains("SNR 20."), "\(text)")
        #expect(text.contains("peak -"), "\(text)")
        if columns >= 80 { #expect(text.hasPrefix("[") && text.contains("|"), "\(text)") }
        if columns >= 120 {
            #expect(text.contains("mark ") && text.contains("rms "), "\(text)")
            #expect(
                line.render(wrong, columns: columns).contains("(strongest "), "\(line.render(wrong, columns: columns))")
        }
    }

    @Test("verbose and unlimited lines keep every field")
    func verbose() throws {
        let (ok, _) = try Self.readings()
        let line = LevelLine(profileName: "softmodem-1225")
        let full = line.render(ok, columns: 40, verbose: true)
        for field in [
            "peak ", "hold ", "rms ", "SNR ", "mark ", "tones 7350/4900 Hz", "noise ", "(between bursts)", "burst ",
            "ok",
        ] {
            #expect(full.contains(field), "\(field) missing: \(full)")
        }
        #expect(line.render(ok, columns: nil).count > 80)
    }

    @Test("very narrow terminals get the advice cut, never a wrapped line", arguments: [1, 5, 12])
    func narrow(columns: Int) throws {
        let (_, wrong) = try Self.readings()
        #expect(LevelLine(profileName: "softmodem-1225").render(wrong, columns: columns).count <= max(1, columns - 1))
    }

    @Test("an SNR above 60 dB reads as such; a digital silence's -inf is written out")
    func extremes() throws {
        var r = LevelReading()
        var burst = try #require(try Self.readings().ok.burst)
        burst.snr = .infinity
        r.burst = burst
        r.verdict = .ok
        let text = LevelLine(profileName: "softmodem-1225").render(r, columns: 200)
        #expect(text.contains("SNR >60 dB") && text.contains("peak -inf"), "\(text)")
    }
}
