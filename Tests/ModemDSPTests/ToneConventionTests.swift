import Testing

@testable import ModemDSP

/// Which tone is mark, by the convention of the modem whose tones a burst has.
@Suite struct ToneConventionTests {
    @Test func everyBuiltInProfileFollowsItsOwnConvention() {
        for p in ModemProfile.builtIn {
            let s = ModemSignature(mark: p.mark, space: p.space, baud: p.baud)
            #expect(ToneConvention.oriented(s) == s, "\(p.name)")
            let swapped = ModemSignature(mark: p.space, space: p.mark, baud: p.baud)
            #expect(ToneConvention.oriented(swapped) == s, "\(p.name) swapped")
        }
    }

    @Test func realBoardsTonesTakeMarkOnTheHigherTone() {
        // A 16 MHz Arduino at "126", "315" and "630" and an 8 MHz one at "126", measured
        // the wrong way round (as the longest-run guess named them).
        for (high, low) in [(1953.0, 919.0), (3289.0, 1603.0), (6579.0, 3205.0), (1836.0, 893.0), (7300.0, 4900.0)] {
            let s = ToneConvention.oriented(ModemSignature(mark: low, space: high, baud: 131))
            #expect(s?.mark == high && s?.space == low, "\(high)/\(low)")
        }
    }

    @Test func bell202TakesMarkOnTheLowerToneAndBell103OnTheHigher() {
        #expect(ToneConvention.oriented(ModemSignature(mark: 2180, space: 1210, baud: 1200))?.mark == 1210)
        #expect(ToneConvention.oriented(ModemSignature(mark: 1072, space: 1268, baud: 300))?.mark == 1268)
        #expect(ToneConvention.oriented(ModemSignature(mark: 2020, space: 2230, baud: 300))?.mark == 2230)
    }

    @Test func aPairOfNoKnownModemIsLeftToTheBurst() {
        // minimodem -M 1200 -S 2400: 2400 Hz is 9 % from Bell 202's 2200 Hz space.
        #expect(ToneConvention.oriented(ModemSignature(mark: 2400, space: 1200, baud: 1200)) == nil)
        #expect(ToneConvention.pair(1800, 3600) == nil)
    }

    @Test func noTwoConventionsOverlapWithOppositeMarks() {
        // A pair within tolerance of two conventions must get the same mark from both.
        for a in ToneConvention.pairs {
            for b in ToneConvention.pairs where a != b {
                let near = { (x: Double, y: Double) in abs(x / y - 1) <= 2 * ToneConvention.tolerance }
                if near(a.mark, b.mark) && near(a.space, b.space) { continue }
                #expect(!(near(a.mark, b.space) && near(a.space, b.mark)), "\(a.name) / \(b.name)")
            }
        }
    }
}
