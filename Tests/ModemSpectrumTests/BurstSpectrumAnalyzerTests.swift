import ModemDSP
import ModemSpectrum
import RealModule
import Testing

@Suite("Burst spectrum analyzer (FFTW)")
struct BurstSpectrumAnalyzerTests {
    static func tone(_ frequency: Double, amplitude: Double, count: Int, rate: Double = 44_100) -> [Float] {
        (0..<count).map { Float(amplitude * Double.sin(2 * Double.pi * frequency * Double($0) / rate)) }
    }

    @Test(
        "a 7300 Hz tone is measured within 2 Hz, its level within 0.5 dB", arguments: [7300.0, 4900.0, 7353.0, 4902.0])
    func pureTone(frequency: Double) throws {
        let analyzer = BurstSpectrumAnalyzer(profile: .softmodem1225, sampleRate: 44_100)
        analyzer.process(Self.tone(frequency, amplitude: 0.5, count: 20_000))
        let near = frequency > 6000 ? 7350.0 : 4900.0
        let tone = try #require(analyzer.peak(from: near * 0.9, to: near * 1.1))
        #expect(abs(tone.frequency - frequency) < 2, "measured \(tone.frequency)")
        #expect(abs(tone.levelDBFS - (-6.02)) < 0.5, "level \(tone.levelDBFS)")
    }

    @Test("an FSK burst from the iPhone app's tones: mark 7300 and space 4900 within 2 Hz, suggested profile follows")
    func fskBurst() throws {
        let profile = ModemProfile(name: "app", baud: 1225, mark: 7300, space: 4900)
        let modulator = try FSKModulator(profile: profile, sampleRate: 44_100, amplitude: 0.5)
        var encoder = BurstEncoder(modulator: modulator)
        var g = SeededGenerator(seed: 4)
        let bytes = (0..<200).map { _ in UInt8(truncatingIfNeeded: g.next()) }
        let signal = encoder.burst(bytes, leadingSilence: 20_000, trailingSilence: 20_000)
        let analyzer = BurstSpectrumAnalyzer(profile: .softmodem1225, sampleRate: 44_100)
        for start in stride(from: 0, to: signal.count, by: 1000) {  // odd chunk sizes: streaming
            analyzer.process(Array(signal[start..<min(signal.count, start + 1000)]))
        }
        let (mark, space) = analyzer.measurement()
        let m = try #require(mark)
        let s = try #require(space)
        #expect(abs(m.frequency - 7300) < 2, "mark \(m.frequency)")
        #expect(abs(s.frequency - 4900) < 2, "space \(s.frequency)")
        // Levels are the tones' while they are on: the burst's -6 dBFS.
        #expect(abs(m.levelDBFS - (-6)) < 1 && abs(s.levelDBFS - (-6)) < 1, "\(m.levelDBFS) \(s.levelDBFS)")
        let suggestion = try #require(analyzer.suggestedProfile())
        #expect(abs(suggestion.mark - 7300) < 2 && abs(suggestion.space - 4900) < 2)
        analyzer.reset()
        #expect(analyzer.measurement().mark == nil)
    }

    @Test("a sender 3 % slow: both tones measured within 2 Hz through white noise at +10 dB SNR")
    func offFrequencyInNoise() throws {
        let profile = ModemProfile(name: "slow", baud: 1225 * 0.97, mark: 7350 * 0.97, space: 4900 * 0.97)
        let modulator = try FSKModulator(profile: profile, sampleRate: 44_100, amplitude: 0.5)
        var encoder = BurstEncoder(modulator: modulator)
        var g = SeededGenerator(seed: 5)
        var signal = encoder.burst((0..<300).map { _ in UInt8(truncatingIfNeeded: g.next()) })
        var noise = GaussianNoise(standardDeviation: (0.125 / 10).squareRoot(), seed: 6)
        noise.add(to: &signal)
        let analyzer = BurstSpectrumAnalyzer(profile: .softmodem1225, sampleRate: 44_100)
        analyzer.process(signal)
        let (mark, space) = analyzer.measurement()
        let m = try #require(mark)
        let s = try #require(space)
        #expect(abs(m.frequency - 7350 * 0.97) < 2, "mark \(m.frequency)")
        #expect(abs(s.frequency - 4900 * 0.97) < 2, "space \(s.frequency)")
        let suggestion = try #require(analyzer.suggestedProfile())
        #expect(abs(suggestion.baud - 1225 * 0.97) < 2)
    }

    @Test("silence, NaN and nominal tones give no suggestion")
    func nothingToSuggest() throws {
        let analyzer = BurstSpectrumAnalyzer(profile: .softmodem1225, sampleRate: 44_100)
        analyzer.process([Float](repeating: 0, count: 10_000))
        analyzer.process([Float](repeating: .nan, count: 5_000))
        #expect(analyzer.measurement().mark == nil && analyzer.suggestedProfile() == nil)
        let modulator = try FSKModulator(profile: .softmodem1225, sampleRate: 44_100, amplitude: 0.5)
        var encoder = BurstEncoder(modulator: modulator)
        analyzer.process(encoder.burst([UInt8](repeating: 0x55, count: 100)))
        #expect(analyzer.suggestedProfile() == nil)
    }
}
