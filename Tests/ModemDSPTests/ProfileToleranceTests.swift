import ModemDSP
import Testing

/// One tolerance names a measured signal's profile everywhere: 5 % of the measurement.
@Suite struct ProfileToleranceTests {
    @Test("a signal within 5 % of a profile's rate and tones is that profile's, one further off is none")
    func signatureNamesItsProfileWithinFivePercent() {
        let p = ModemProfile.softmodem1225
        let near = ModemSignature(mark: p.mark * 1.04, space: p.space * 0.96, baud: p.baud * 1.04)
        #expect(near.profile?.name == p.name)
        #expect(near.fits(p))
        // 4.8 % under the profile's rate, but the profile's is 5.04 % over it: the share is
        // of the measurement, so this is none.
        #expect(ModemSignature(mark: p.mark, space: p.space, baud: p.baud * 0.952).profile == nil)
        let far = ModemSignature(mark: p.mark, space: p.space, baud: p.baud * 1.06)
        #expect(far.profile == nil)
        #expect(!far.fits(p))
    }

    @Test("the tolerance is a share of the reference, and nothing is within it of zero or NaN")
    func shareOfTheReference() {
        #expect(ModemProfile.isWithinTolerance(0.952, of: 1))
        #expect(!ModemProfile.isWithinTolerance(1, of: 0.952))
        #expect(!ModemProfile.isWithinTolerance(1, of: 0))
        #expect(!ModemProfile.isWithinTolerance(.nan, of: 1))
        #expect(!ModemProfile.isWithinTolerance(1, of: .infinity))
    }
}
