import Foundation
import ModemTestSupport
import Testing

extension PhaseResetTests {
    /// Bell 103's tones the other way round (mark on 1070 Hz), phase restarted every bit:
    /// at 22.05 kHz the weak-burst trial read its clicks as Bell 202 (0xFF, 0xF7 and 0x77,
    /// measuring a 1911 Hz space) and printed them with exit status 0. Clicks whose measured
    /// tones are not the profile's name no profile; whatever comes out, never a wrong byte
    /// with exit status 0.
    @Test("Bell 103 swapped: never a wrong byte with exit status 0", arguments: rates)
    func bell103Swapped(rate: Int) throws {
        let text = Data(IdleGapTests.text)
        let tones = (
            mark: IdleGapTests.bell103.space, space: IdleGapTests.bell103.mark, baud: IdleGapTests.bell103.baud
        )
        let r = try Self.decode(tones, rate: rate)
        if r.status == 0 { #expect(r.stdout == text, "got \(Array(r.stdout.prefix(8))): \(r.stderr)") }
        if r.stdout != text { #expect(r.status != 0 && !r.stderr.isEmpty, "\(r.stderr)") }
    }
}
