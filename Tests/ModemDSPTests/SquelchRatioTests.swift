import Testing

@testable import ModemDSP

/// The squelch is checked as a ratio against precomputed thresholds; these must give the
/// verdicts `decibels(power:) >= squelch` would.
struct SquelchRatioTests {
    @Test("the threshold is the first ratio whose decibels reach the level, for -20 to 60 dB")
    func boundary() {
        for tenth in -200...600 {
            let level = Double(tenth) / 10
            let r = FSKDemodulator.smallestRatio(reaching: level)
            #expect(r > 0 && r.isFinite)
            #expect(Decibels.power(r) >= level, "\(level) dB: \(r) falls short")
            #expect(Decibels.power(r.nextDown) < level, "\(level) dB: \(r.nextDown) already reaches it")
        }
        #expect(FSKDemodulator.smallestRatio(reaching: 0) == 1)
        #expect(abs(FSKDemodulator.smallestRatio(reaching: 10) / 10 - 1) < 1e-12)
    }

    @Test("levels no positive finite ratio can miss or reach")
    func extremes() {
        // Below the decibels of the smallest subnormal every positive ratio passes (zero,
        // at -infinity dB, still does not).
        #expect(FSKDemodulator.smallestRatio(reaching: -4000) == .leastNonzeroMagnitude)
        // Above that of the largest double nothing passes.
        #expect(FSKDemodulator.smallestRatio(reaching: 4000) == .infinity)
        #expect(!(Double.greatestFiniteMagnitude >= FSKDemodulator.smallestRatio(reaching: 4000)))
    }
}
