import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// A burst decodes whole whatever silence precedes it: the silence moves the burst's bits
/// against the demodulator's segment grid, and every offset must find the first character.
///
/// Bell 202 is the sharp case: its 1200 Hz mark holds one cycle per bit, and its first
/// character used to be dropped at a third of the offsets (its mark tone read 90-150 Hz
/// high and failed the plausibility test).
@Suite("bursts after any length of leading silence")
struct LeadingSilenceTests {
    static let bytes: [UInt8] = [68, 91, 216, 156, 223, 59, 188, 142]

    /// `bytes` as one burst after `silence` zero samples, decoded.
    static func decode(_ bytes: [UInt8], profile: ModemProfile, silence: Int) throws -> [UInt8] {
        let burst = try TestSignals.encode(bytes, profile: profile)
        let signal = [Float](repeating: 0, count: silence) + burst + [Float](repeating: 0, count: 2000)
        return try TestSignals.decode(signal, profile: profile)
    }

    @Test(
        "every byte decodes after any silence up to the limit, in steps of 7 samples",
        arguments: [(ModemProfile.bell202, 4000), (.softmodem1225, 4000), (.webjack1225, 1400), (.bell103, 700)])
    func sweep(profile: ModemProfile, limit: Int) throws {
        var failed: [Int] = []
        for silence in stride(from: 0, to: limit, by: 7)
        where try Self.decode(Self.bytes, profile: profile, silence: silence) != Self.bytes {
            failed.append(silence)
        }
        #expect(failed.count == 0, "\(profile.name): bytes lost after silences of \(failed.prefix(8)) samples, ...")
    }

    @Test("Bell 202: random bursts at every sample offset over seven segments")
    func bell202RandomBursts() throws {
        for seed in UInt64(33)...40 {  // seed 38 lost its first byte at 14 of the 42 offsets
            let bytes = TestSignals.randomBytes(8, seed: seed)
            for silence in 0..<42 {
                #expect(
                    try Self.decode(bytes, profile: .bell202, silence: silence) == bytes,
                    "seed \(seed), silence \(silence)")
            }
        }
    }
}
