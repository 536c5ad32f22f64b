import BoardModels
import Foundation
import Testing

/// The BFSK limits of `bench ber` against independent values: the closed forms for
/// orthogonal tones, and for correlated tones SciPy's noncentral chi-square (Marcum Q1(a, b)
/// = ncx2.sf(b^2, 2, a^2)) and i0e, computed once (SciPy 1.10, November 2026).
@Suite struct FSKErrorTheoryTests {
    static func linear(_ dB: Double) -> Double { pow(10, dB / 10) }

    @Test(arguments: [0.0, 6, 10, 12, 14.8])
    func orthogonalTonesGiveTheClosedForms(dB: Double) {
        let g = Self.linear(dB)
        let nc = FSKErrorTheory.nonCoherentBitErrorRate(ebN0: g, modulationIndex: 2)
        let coh = FSKErrorTheory.coherentBitErrorRate(ebN0: g, modulationIndex: 2)
        #expect(abs(nc / (0.5 * exp(-g / 2)) - 1) < 1e-6, "\(nc)")
        #expect(abs(coh / (0.5 * erfc((g / 2).squareRoot())) - 1) < 1e-6, "\(coh)")
    }

    @Test func correlatedTonesMatchMarcumQ() {
        // (modulation index, Eb/N0 dB, SciPy's value)
        let cases: [(Double, Double, Double)] = [
            (1000.0 / 1200, 6, 0.07337341832053955), (1000.0 / 1200, 12, 0.00033616950079195856),
            (1000.0 / 1200, 14.8, 7.155844285052695e-07), (200.0 / 300, 10, 0.010777608940687489),
            (200.0 / 300, 14.8, 1.7135204250053995e-05),
        ]
        for (h, dB, expected) in cases {
            let p = FSKErrorTheory.nonCoherentBitErrorRate(ebN0: Self.linear(dB), modulationIndex: h)
            #expect(abs(p / expected - 1) < 1e-5, "h \(h) at \(dB) dB: \(p), SciPy \(expected)")
        }
    }

    @Test func correlationCostsAndEdgesHold() {
        let g = Self.linear(12)
        let orthogonal = FSKErrorTheory.nonCoherentBitErrorRate(ebN0: g, modulationIndex: 2)
        let bell202 = FSKErrorTheory.nonCoherentBitErrorRate(ebN0: g, modulationIndex: 1000.0 / 1200)
        #expect(bell202 > orthogonal)
        // Coherent detection beats non-coherent for the same tones.
        #expect(FSKErrorTheory.coherentBitErrorRate(ebN0: g, modulationIndex: 1000.0 / 1200) < bell202)
        #expect(FSKErrorTheory.nonCoherentBitErrorRate(ebN0: 0, modulationIndex: 2) == 0.5)
        #expect(FSKErrorTheory.coherentBitErrorRate(ebN0: -1, modulationIndex: 2) == 0.5)
        #expect(FSKErrorTheory.nonCoherentBitErrorRate(ebN0: .nan, modulationIndex: 2).isNaN)
    }
}
