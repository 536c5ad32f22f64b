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
        let settings = FSKSettings(profile: .softmodem1225)
        var demod = try settings.makeReceiver(sampleRate: 44_100)
        let analyzer = RecordingAnalyzer(
            name: "t", sampleRate: 44_100, frames: Int64(samples.count), format: "test", modem: "softmodem-1225",
            nominalTones: (7350, 4900), baud: 1225, gapBits: 20, maxFrequency: 10_000)
        let layout = CharacterLayout(
            line: .fsk(mark: 7350, space: 4900), baud: 1225, format: .eightN1, label: "softmodem-1225, 8N1")
        var events: [ModemEvent] = []
        TestSignals.feed(samples, chunk: 1000) { chunk in
            events.removeAll()
            demod.process(chunk, into: &events)
            analyzer.process(chunk)
            for e in events { analyzer.add(e, layout: layout) }
        }
        events.removeAll()
        demod.flush(into: &events)
        for e in events { analyzer.add(e, layout: layout) }
        let a = analyzer.finish()
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
