import BoardModels
import CommandLineText
import ModemDSP
import ModemTestSupport
import RealModule
import Testing

/// What ``SignalSurvey`` says about an input: modems of every built-in profile named with
/// their tones and bit rate, and everything else named for what it is.
@Suite struct DiagnosisTests {
    static func survey(_ signal: [Float], rate: Double = 44_100, chunk: Int = 1000) -> Diagnosis {
        var survey = SignalSurvey(sampleRate: rate)
        TestSignals.feed(signal, chunk: chunk) { survey.process($0) }
        return survey.diagnosis()
    }

    static func tone(_ hz: Double, amplitude: Float, seconds: Double, rate: Double = 44_100) -> [Float] {
        (0..<Int(seconds * rate)).map { amplitude * Float(Double.sin(2 * Double.pi * hz * Double($0) / rate)) }
    }

    @Test(
        "a burst of every built-in profile is recognised, with mark, space and bit rate",
        arguments: ModemProfile.builtIn)
    func everyProfile(profile: ModemProfile) throws {
        let bytes = TestSignals.randomBytes(max(40, Int(profile.baud / 4)), seed: 5)
        var signal = try TestSignals.encode(bytes, profile: profile, amplitude: 0.3, silence: 4000)
        TestSignals.addNoise(&signal, snr: 20, signalPower: 0.045, seed: 2)
        guard case .modem(let found) = Self.survey(signal) else {
            Issue.record("\(profile.name): \(Self.survey(signal))")
            return
        }
        #expect(found.profile?.name == profile.name, "\(found)")
        #expect(abs(found.mark / profile.mark - 1) < 0.03 && abs(found.space / profile.space - 1) < 0.03, "\(found)")
        #expect(abs(found.baud / profile.baud - 1) < 0.03, "\(found)")
        #expect(found.options == "--profile \(profile.name)")
    }

    @Test("a modem no profile matches is described by the options that pin it")
    func customModem() throws {
        let profile = ModemProfile(name: "x", baud: 600, mark: 3000, space: 1800)
        let signal = try TestSignals.encode(
            TestSignals.randomBytes(100, seed: 1), profile: profile, amplitude: 0.3, silence: 2000)
        guard case .modem(let found) = Self.survey(signal) else {
            Issue.record("\(Self.survey(signal))")
            return
        }
        #expect(found.profile == nil)
        #expect(found.options == "--baud 600 --mark 3000 --space 1800", "\(found)")
        #expect(!found.fits(.softmodem1225))
    }

    @Test("silence, a level too low, a lone tone, white noise and clipping are each named")
    func notAModem() {
        #expect(Self.survey([Float](repeating: 0, count: 50_000)) == .silence)
        #expect(Self.survey([]) == .silence)
        guard case .tooQuiet(let level) = Self.survey(Self.tone(1000, amplitude: 1e-4, seconds: 1)) else {
            Issue.record("quiet tone not reported as too quiet")
            return
        }
        #expect(abs(level - -83) < 1)
        guard case .noModemTones(let hz?, let db?, _) = Self.survey(Self.tone(2_345, amplitude: 0.1, seconds: 1)) else {
            Issue.record("a lone tone: \(Self.survey(Self.tone(2_345, amplitude: 0.1, seconds: 1)))")
            return
        }
        #expect(abs(hz - 2_345) < 5 && abs(db - -23) < 1, "\(hz) Hz at \(db)")
        var noise = [Float](repeating: 0, count: 88_200)
        TestSignals.addNoise(&noise, snr: 0, signalPower: 0.01, seed: 4)
        guard case .noModemTones(nil, nil, _) = Self.survey(noise) else {
            Issue.record("white noise: \(Self.survey(noise))")
            return
        }
        let clipped = Self.tone(1000, amplitude: 3, seconds: 1).map { max(-1, min(1, $0)) }
        guard case .clipping(let fraction, _) = Self.survey(clipped) else {
            Issue.record("clipped tone: \(Self.survey(clipped))")
            return
        }
        #expect(fraction > 0.5)
        #expect(Self.survey(clipped).text.hasPrefix("the input clips"))
    }

    @Test("a clean sine at full scale does not clip, at any modem tone, rate and phase")
    func fullScaleIsNotClipping() {
        // minimodem's default level: 3 % of a full-scale sine's samples sit within 0.01 dB
        // of full scale, which once read as clipping. Quantised as a 16-bit file holds it,
        // with the peaks on a sample and half way between two (two equal samples).
        let cases: [(Double, Double)] = [
            (1070, 8_000), (1200, 48_000), (1600, 48_000), (4900, 44_100), (613, 96_000), (450, 44_100), (441, 44_100),
        ]
        for (hz, rate) in cases {
            for phase in [0.0, 0.5] {
                let wave = (0..<Int(rate)).map { i -> Float in
                    let x = Double.sin(2 * Double.pi * hz * (Double(i) + phase) / rate)
                    return Float((x * 32_767).rounded() / 32_768)
                }
                if case .clipping = Self.survey(wave, rate: rate) {
                    Issue.record("\(hz) Hz at \(rate) Hz, phase \(phase) sample, read as clipping")
                }
            }
        }
        // Beyond full scale is clipping whatever the neighbours (a float file).
        let loud = Self.tone(1000, amplitude: 1.2, seconds: 1)
        guard case .clipping = Self.survey(loud) else {
            Issue.record("a float signal beyond full scale: \(Self.survey(loud))")
            return
        }
    }
}
