import BoardModels
import ModemDSP
import ModemReportPage
import ModemTestSupport
import Testing

@testable import ModemReport

@Suite struct RecordingAnalyzerTests {
    /// Two bursts through the analyzer beside a demodulator: two rows with their text, two
    /// details whose bits mostly read as sent, and a verdict that says all is well.
    @Test func burstsRowsDetailsAndVerdict() throws {
        let text = Array("hello there".utf8)
        let one = try TestSignals.encode(text, amplitude: 0.5, silence: 11_025)
        let samples = one + one
        let a = try analyseSoftModem1225(samples)
        #expect(a.text == text + text)
        #expect(a.rows.count == 2)
        #expect(a.rows.allSatisfy { $0.preview == text && $0.summary.bytes == text.count })
        #expect(a.details.count == 2)
        for d in a.details {
            #expect(d.events.count == text.count)
            #expect(d.bits.count == text.count * 10)
            // Clean signal: every bit's stronger tone is the one it should be.
            #expect(d.bits.allSatisfy { ($0.mark > $0.space) == $0.isMark })
            #expect(d.waveform.count > 0)
        }
        #expect(Verdict.hints(for: a).map(\.id) == ["ok"])
        #expect(a.frames == Int64(samples.count))
        #expect(abs(a.duration - Double(samples.count) / 44_100) < 1e-9)
    }
}
