import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// The demodulator reports a burst only once it sounds like a modem: steady tones, one at
/// a time, at one level. These signals are built so that the old rule (a first character
/// over the squelch, then the burst's clock vouching for the rest) would print them.
@Suite struct BurstConfirmationTests {
    static let rate = 44_100.0

    /// Characters of 8N1, each sent on its own pair of tones (mark and space moved by the
    /// given offsets in turn), back to back, at an Eb/N0 of about 13 dB: each character is
    /// a valid one, but no modem hops between tones like this.
    static func hopping(_ bytes: [UInt8], markOffsets: [Double], spaceOffsets: [Double], seed: UInt64) throws -> [Float]
    {
        var signal = [Float](repeating: 0, count: 4000)
        for (i, byte) in bytes.enumerated() {
            let p = ModemProfile.softmodem1225
            let profile = ModemProfile(
                name: "hop", baud: p.baud, mark: p.mark + markOffsets[i % markOffsets.count],
                space: p.space + spaceOffsets[i % spaceOffsets.count])
            signal += try TestSignals.encode(
                [byte], profile: profile, rate: rate, amplitude: 0.5, preamble: i == 0 ? 4 : 0, postamble: 0)
        }
        signal += [Float](repeating: 0, count: 4000)
        TestSignals.addNoise(&signal, snr: 0.5, signalPower: 0.125, seed: seed)
        return signal
    }

    @Test("characters that hop between tones by hundreds of hertz are not reported")
    func hoppingTones() throws {
        let bytes = TestSignals.randomBytes(40, seed: 3)
        for seed in 1...4 as ClosedRange<UInt64> {
            let signal = try Self.hopping(bytes, markOffsets: [350, -350], spaceOffsets: [-270, 270], seed: seed)
            #expect(try TestSignals.decode(signal).isEmpty, "seed \(seed)")
        }
    }

    @Test("the same characters on steady tones and at the same SNR decode whole")
    func steadyTones() throws {
        let bytes = TestSignals.randomBytes(40, seed: 3)
        for seed in 1...4 as ClosedRange<UInt64> {
            let signal = try Self.hopping(bytes, markOffsets: [0], spaceOffsets: [0], seed: seed)
            #expect(TestSignals.editDistance(try TestSignals.decode(signal), bytes) <= 1, "seed \(seed)")
        }
    }
}
