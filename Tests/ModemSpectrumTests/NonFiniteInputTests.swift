import ModemDSP
import ModemSpectrum
import Testing

/// Damaged float recordings hold NaN, infinities and values near the float limit. The
/// analyzer must neither trap nor let one bad stretch spoil the rest of a measurement.
@Suite("Burst spectrum analyzer: non-finite and huge samples")
struct NonFiniteInputTests {
    static func burst() throws -> [Float] {
        let modulator = try FSKModulator(profile: .softmodem1225, sampleRate: 44_100, amplitude: 0.5)
        var encoder = BurstEncoder(modulator: modulator)
        return encoder.burst(Array(repeating: 0x55, count: 120), leadingSilence: 4000, trailingSilence: 4000)
    }

    @Test(
        "NaN, infinities and near-limit values in a burst: no trap, and the tones are still found",
        arguments: [Float.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -3e38, 1e37])
    func damagedBurst(bad: Float) throws {
        var signal = try Self.burst()
        // Single samples, pairs and runs, so the float transforms overflow in every pattern.
        for (start, length) in [(6000, 1), (9000, 2), (12_000, 7), (15_001, 64), (20_000, 700)] {
            for i in start..<(start + length) { signal[i] = i % 3 == 0 ? -bad : bad }
        }
        let analyzer = BurstSpectrumAnalyzer(profile: .softmodem1225, sampleRate: 44_100)
        for start in stride(from: 0, to: signal.count, by: 777) {
            analyzer.process(Array(signal[start..<min(signal.count, start + 777)]))
        }
        let (mark, space) = analyzer.measurement()
        _ = analyzer.suggestedProfile()
        if !bad.isFinite {
            // Read as silence: the rest of the burst measures as usual.
            let m = try #require(mark)
            let s = try #require(space)
            #expect(abs(m.frequency - 7350) < 5 && abs(s.frequency - 4900) < 5, "\(m.frequency) \(s.frequency)")
        }
    }

    @Test("a peak search with non-finite bounds finds nothing rather than trapping")
    func nonFiniteBounds() throws {
        let analyzer = BurstSpectrumAnalyzer(profile: .softmodem1225, sampleRate: 44_100)
        analyzer.process(try Self.burst())
        #expect(analyzer.peak(from: .nan, to: 8000) == nil)
        #expect(analyzer.peak(from: 4000, to: .infinity) == nil)
        #expect(analyzer.peak(from: 4000, to: 8000) != nil)
    }
}
