import BoardModels
import Foundation
import ModemDSP
import ModemTestSupport
import Testing

/// Bell 202 and Bell 103 have tones closer than orthogonal (1000 Hz at 1200 baud, 200 Hz at
/// 300 baud), so a steady tone reads 4 % and 17 % of its energy in the other tone's filter.
/// Every measure that took the losing filter for noise called their clean bursts speech:
/// Bell 103 at 44.1 and 48 kHz decoded nothing below 20 dB Eb/N0, and Bell 202 at 48 kHz
/// decoded nothing at 14 dB (it did at 11).
@Suite struct CorrelatedToneTests {
    static let cases: [(ModemProfile, Double)] = [
        (.bell202, 44_100), (.bell202, 48_000), (.bell103, 44_100), (.bell103, 48_000),
    ]

    /// A long burst at Eb/N0 from 12 to 20 dB: within a small margin of the non-coherent
    /// theory for its tone spacing at every level (a dropped burst start or a run of lost
    /// characters is far outside it).
    @Test("a long burst decodes near the theory for its tone spacing from 12 to 20 dB Eb/N0", arguments: cases)
    func nearTheory(profile: ModemProfile, rate: Double) throws {
        let bytes = TestSignals.randomBytes(Int(profile.baud / 2), seed: 31)
        let amplitude: Float = 0.1
        let clean = try TestSignals.encode(bytes, profile: profile, rate: rate, amplitude: amplitude, silence: 4410)
        let h = abs(profile.mark - profile.space) / profile.baud
        for ebN0 in stride(from: 12.0, through: 20, by: 2) {
            var signal = clean
            let snr = ebN0 - Decibels.power(rate / 2 / profile.baud)
            TestSignals.addNoise(
                &signal, snr: snr, signalPower: Double(amplitude * amplitude) / 2, seed: UInt64(ebN0))
            let got = try TestSignals.decode(signal, profile: profile, rate: rate)
            let bitErrorRate = FSKErrorTheory.nonCoherentBitErrorRate(
                ebN0: Decibels.powerRatio(ebN0), modulationIndex: h)
            let expected = 1 - pow(1 - bitErrorRate, 10)
            let allowed = 3 * expected * Double(bytes.count) + 2
            let errors = TestSignals.editDistance(got, bytes)
            #expect(
                Double(errors) <= allowed,
                "\(profile.name) at \(Int(rate)) Hz, Eb/N0 \(ebN0) dB: \(errors) of \(bytes.count) bytes wrong (allowed \(allowed))"
            )
        }
    }

    /// A burst that opens with characters full of mark-space changes: those leak most, and
    /// at 16 dB Eb/N0 a Bell 202 burst lost its first 3-5 characters to the confirmation.
    @Test("a burst opening with every bit a change keeps its first characters", arguments: cases)
    func changesFirst(profile: ModemProfile, rate: Double) throws {
        let bytes: [UInt8] = [0x55, 0x55, 0xAA, 0x55, 0xCC, 0x33] + TestSignals.randomBytes(40, seed: 32)
        let amplitude: Float = 0.1
        var signal = try TestSignals.encode(
            bytes, profile: profile, rate: rate, amplitude: amplitude, preamble: 10, silence: 4410)
        let snr = 16 - Decibels.power(rate / 2 / profile.baud)
        TestSignals.addNoise(&signal, snr: snr, signalPower: Double(amplitude * amplitude) / 2, seed: 5)
        let got = try TestSignals.decode(signal, profile: profile, rate: rate)
        #expect(Array(got.prefix(6)) == Array(bytes.prefix(6)), "\(profile.name) at \(Int(rate)) Hz: \(got.prefix(8))")
        #expect(TestSignals.editDistance(got, bytes) <= 1)
    }
}
