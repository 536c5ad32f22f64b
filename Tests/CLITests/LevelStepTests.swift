import Foundation
import ModemTestSupport
import Testing

/// A burst's level changing inside it. The demodulator refuses a character 30 dB or more
/// under a confirmed burst's level (the tail of a tone cut off into silence or a DC offset,
/// `PhaseResetTests.bell103OverDCOffset`); a real sender's step must still decode.
@Suite("level steps inside a burst")
struct LevelStepTests {
    /// A burst whose level steps up by 12 dB or down by 12 or 20 dB half way decodes whole
    /// (when any character 10 dB off the level was refused, a step up lost two characters
    /// as framing errors, and a step of 20 dB down lost the characters at the step).
    @Test("a level step inside a burst", arguments: [4.0, 0.25, 0.1])
    func levelStep(gain: Float) throws {
        let samples = IdleGapTests.signal(
            IdleGapTests.text, tones: IdleGapTests.softmodem, gaps: [0], rate: 44_100)
        let half = samples.count / 2
        let stepped = samples.enumerated().map { $0.offset < half ? $0.element * 0.3 : $0.element * 0.3 * gain }
        let r = try CLI.softmodem(["decode", DecodeDiagnosisCLITests.wav(stepped, rate: 44_100)])
        #expect(r.stdout == Data(IdleGapTests.text) && r.status == 0, "\(r.stderr)")
    }
}
