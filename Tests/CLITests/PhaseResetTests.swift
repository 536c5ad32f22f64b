import Foundation
import ModemTestSupport
import Testing

/// Senders that restart the tone's phase at every bit. Bell 103's tones then make a
/// fraction of a cycle a bit (1270 Hz at 300 baud is 4.23 cycles), so each bit boundary
/// clicks, and the spectrum's lines sit at multiples of 300 Hz (900, 1200, 1500) instead of
/// 1070 and 1270. A faster profile's reading of the clicks framed characters of lone space
/// bits: at 11.025 and 96 kHz detection named Bell 202 and printed 0x77, 0xF7 and 0xFF
/// with exit status 0.
@Suite("phase reset at every bit")
struct PhaseResetTests {
    static func decode(
        _ tones: (mark: Double, space: Double, baud: Double), rate: Int, preambleBits: Double = 30,
        options: [String] = []
    ) throws -> CLI.Result {
        let samples = IdleGapTests.signal(
            IdleGapTests.text, tones: tones, gaps: [0], rate: Double(rate), phaseReset: true,
            preambleBits: preambleBits)
        return try CLI.softmodem(["decode"] + options + [DecodeDiagnosisCLITests.wav(samples, rate: rate)])
    }

    static let rates = [8000, 11_025, 22_050, 29_400, 44_100, 48_000, 96_000]

    @Test("Bell 103: never a wrong byte with exit status 0", arguments: rates)
    func bell103(rate: Int) throws {
        let text = Data(IdleGapTests.text)
        let r = try Self.decode(IdleGapTests.bell103, rate: rate)
        if r.status == 0 { #expect(r.stdout == text, "got \(Array(r.stdout.prefix(8))): \(r.stderr)") }
        if r.stdout != text { #expect(r.status != 0 && !r.stderr.isEmpty) }
        // What no options printed at these rates before the clicks were told from a sender.
        if [8000, 11_025].contains(rate) { #expect(r.stdout == text, "\(r.stderr)") }
    }

    /// With no options at 22.05 to 96 kHz after any preamble. The spectrum's lines sit on
    /// the 300 Hz comb, up to a bit rate from the tones, so no tone pair is measured; the
    /// short-burst trial takes Bell 103 when its tones' main lobes (a bit rate either side)
    /// hold the sound, and its clean reading proves 8N1 and measures Bell 103's tones at
    /// Eb/N0 24-25 dB (``AutoReceiver/provenBurstEbN0``). Before, nothing was printed: within
    /// half a bit rate the tones held too little of the sound, and the trial needed 25 dB.
    @Test(
        "Bell 103: exact with no options",
        arguments: [22_050, 44_100, 48_000, 96_000], [2.0, 5, 10, 20, 30, 45])
    func bell103NoOptions(rate: Int, preambleBits: Double) throws {
        let r = try Self.decode(IdleGapTests.bell103, rate: rate, preambleBits: preambleBits)
        #expect(r.stdout == Data(IdleGapTests.text) && r.status == 0, "\(r.stderr)")
    }

    /// With a DC offset of 0.3 (of full scale) under the burst, no options. The tone cut off
    /// into the offset after the burst framed a clean 0xB7 at -59 dBFS, 52 dB under the
    /// burst, and it was printed with exit status 0: a character that far off a confirmed
    /// burst's level is not its sender's.
    @Test("Bell 103 over a DC offset: nothing after the burst", arguments: [22_050, 44_100, 48_000, 96_000])
    func bell103OverDCOffset(rate: Int) throws {
        let samples = IdleGapTests.signal(
            IdleGapTests.text, tones: IdleGapTests.bell103, gaps: [0], rate: Double(rate), phaseReset: true,
            preambleBits: 20
        ).map { $0 + 0.3 }
        let r = try CLI.softmodem(["decode", DecodeDiagnosisCLITests.wav(samples, rate: rate)])
        #expect(r.stdout == Data(IdleGapTests.text) && r.status == 0, "\(r.stderr)")
    }

    /// Pinned, at any preamble length. The clicks at the mark bits' boundaries trigger the
    /// start-bit hunt in the preamble; one just before the start bit left the true start
    /// past the first character's search range, whose edge (0.4 bit early) was decided, and
    /// at 48 kHz the first one or two characters came out wrong with exit status 0 (10 and
    /// 30 bits of preamble). The cut-off tone after the burst framed a character 50 dB
    /// below it (a framing error reported, exit status 1: 44.1, 48 and 96 kHz).
    @Test(
        "Bell 103 pinned: exact after any preamble",
        arguments: [22_050, 44_100, 48_000, 96_000], [2.0, 5, 10, 20, 30, 45])
    func bell103Pinned(rate: Int, preambleBits: Double) throws {
        let r = try Self.decode(
            IdleGapTests.bell103, rate: rate, preambleBits: preambleBits, options: ["--profile", "bell103"])
        #expect(r.stdout == Data(IdleGapTests.text) && r.status == 0, "\(r.stderr)")
    }

    /// At 8 kHz (6.7 samples a bit, 1.8 cycles of space) one bit of a clean burst is
    /// misread, pinned too, with exit status 0: minimodem reads it exactly.
    @Test("Bell 202: exact with no options", arguments: rates)
    func bell202(rate: Int) throws {
        let r = try Self.decode(IdleGapTests.bell202, rate: rate)
        try withKnownIssue("one bit of a phase-reset Bell 202 burst at 8 kHz misread") {
            try #require(r.stdout == Data(IdleGapTests.text) && r.status == 0, "\(r.stderr)")
        } when: {
            rate == 8000
        }
    }
}
