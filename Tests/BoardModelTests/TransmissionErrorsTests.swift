import ModemDSP
import ModemTestSupport
import Testing

@Suite("Byte and bit error counting")
struct TransmissionErrorsTests {
    @Test("identical, substituted, missing and extra bytes")
    func cases() {
        let sent: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(TransmissionErrors(sent: sent, decoded: sent).byteErrors == 0)
        let sub = TransmissionErrors(sent: sent, decoded: [1, 2, 3, 4 ^ 0b1010_0000, 5, 6, 7, 8])
        #expect(sub.byteErrors == 1 && sub.bitErrors == 2 && sub.substitutions == 1)
        let missing = TransmissionErrors(sent: sent, decoded: [1, 2, 4, 5, 6, 7, 8])
        #expect(missing.byteErrors == 1 && missing.bitErrors == 8 && missing.deletions == 1)
        let extra = TransmissionErrors(sent: sent, decoded: [1, 2, 3, 0xFF, 4, 5, 6, 7, 8])
        #expect(extra.byteErrors == 1 && extra.bitErrors == 8 && extra.insertions == 1)
        #expect(TransmissionErrors(sent: sent, decoded: []).byteErrors == 8)
        #expect(TransmissionErrors(sent: [], decoded: [1, 2]).bitErrors == 16)
        #expect(abs(missing.byteErrorRate - 1.0 / 8) < 1e-12 && abs(missing.bitErrorRate - 8.0 / 64) < 1e-12)
    }

    @Test("the banded alignment equals the full edit distance, even for very different sequences")
    func matchesFullDistance() {
        for seed in 0..<20 {
            let a = Models.randomBytes(40 + seed * 3, seed: UInt64(seed))
            var b = a
            let garbage = Models.randomBytes(seed * 5, seed: UInt64(100 + seed))
            b.replaceSubrange(seed..<min(b.count, seed + seed * 2), with: garbage)
            if seed % 3 == 0 { b = Models.randomBytes(seed + 10, seed: UInt64(200 + seed)) }
            #expect(TransmissionErrors(sent: a, decoded: b).byteErrors == Models.editDistance(a, b))
        }
    }
}
