import ModemDSP
import ModemFraming
import Testing

/// The link's Reed-Solomon code: every pattern of up to t damaged bytes is repaired, more is
/// refused or (rarely) miscorrected, never crashes.
@Suite struct ReedSolomonTests {
    @Test(arguments: [2, 8, 16])
    func upToTErrorsAreRepairedAnywhere(parity: Int) {
        let code = ReedSolomon(paritySize: parity)
        var rng = SeededGenerator(seed: UInt64(parity))
        for trial in 0..<300 {
            let length = 1 + Int(rng.next() % UInt64(255 - parity))
            let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let word = data + code.parity(of: data)
            var damaged = word
            let errors = trial % (parity / 2 + 1)
            var positions = Set<Int>()
            while positions.count < errors { positions.insert(Int(rng.next() % UInt64(word.count))) }
            for p in positions { damaged[p] ^= UInt8(1 + rng.next() % 255) }
            let fixed = code.correct(&damaged)
            #expect(fixed == errors, "trial \(trial) length \(length)")
            #expect(damaged == word)
        }
    }

    @Test func tooManyErrorsAreRefusedOrCaughtNeverCrash() {
        let code = ReedSolomon(paritySize: 8)
        var rng = SeededGenerator(seed: 99)
        var refused = 0
        for _ in 0..<500 {
            let data = (0..<100).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let word = data + code.parity(of: data)
            var damaged = word
            for _ in 0..<(5 + Int(rng.next() % 20)) { damaged[Int(rng.next() % 108)] ^= UInt8(1 + rng.next() % 255) }
            if code.correct(&damaged) == nil { refused += 1 }
        }
        #expect(refused > 450)
        var tooLong = [UInt8](repeating: 1, count: 300)
        #expect(code.correct(&tooLong) == nil)
        var tooShort: [UInt8] = [1, 2, 3]
        #expect(code.correct(&tooShort) == nil)
    }

    /// Someone else's numbers: QR codes use the same field and roots; the error-correction
    /// bytes of the standard "HELLO WORLD" 1-M symbol (ISO/IEC 18004 worked example).
    @Test func matchesTheQRCodeWorkedExample() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        let code = ReedSolomon(paritySize: 10)
        #expect(code.parity(of: data) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }
}
