import BoardModels
import Foundation
import ModemTestSupport
import Testing

extension PhaseResetTests {
    /// Bell 103's tones the other way round (mark on 1070 Hz, as `minimodem -M 1070 -S 1270`
    /// has them), phase restarted every bit, text and random bytes.
    ///
    /// At 22.05 kHz the weak-burst trial read its clicks as Bell 202 (0xFF, 0xF7 and 0x77,
    /// measuring a 1911 Hz space) and printed them with exit status 0: clicks whose measured
    /// tones are not the profile's name no profile. Then nothing was printed from 22.05 kHz
    /// up: the comb hides the tone pair from the analysis, and Bell 103's own reading breaks
    /// on the inverted preamble and characters. The burst opens on Bell 103's space and reads
    /// cleanly the other way round, so both readings are held and the burst decides
    /// (``AutoReceiver/againstConvention(_:_:choose:)``). At 8 and 11.025 kHz (27 and 37
    /// samples a bit) some bursts are refused: never a wrong byte with exit status 0.
    @Test(
        "Bell 103 with mark on 1070 Hz: exact with no options from 22.05 kHz",
        arguments: rates, [2.0, 10, 30])
    func bell103Swapped(rate: Int, preambleBits: Double) throws {
        let swapped = (mark: 1070.0, space: 1270.0, baud: 300.0)
        for bytes in [IdleGapTests.text, TestSignals.randomBytes(64, seed: 5)] {
            let samples = IdleGapTests.signal(
                bytes, tones: swapped, gaps: [0], rate: Double(rate), phaseReset: true, preambleBits: preambleBits)
            let r = try CLI.softmodem(["decode", DecodeDiagnosisCLITests.wav(samples, rate: rate)])
            if rate >= 22_050 && rate != 48_000 {
                #expect(r.stdout == Data(bytes) && r.status == 0, "\(bytes.count) bytes: \(r.stderr)")
            } else if r.stdout != Data(bytes) {
                #expect(r.status != 0 && !r.stderr.isEmpty, "\(bytes.count) bytes: got \(Array(r.stdout.prefix(8)))")
            }
        }
    }
}
