import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

@testable import ModemReport

/// `inspect` of a HiJack lab11 capture: its bytes are 8 cells of one bit stream, so each one
/// is drawn and traced over 8 cells, not the 10 of a framed byte (start, data, parity).
@Suite struct BitStreamLayoutTests {
    @Test func aLab11ByteSpansItsEightBitsAlone() throws {
        let packet = HiJackSignals.lab11Packet(0x23, [0x10, 0x7F, 0x02])
        let samples = HiJackSignals.lab11BoardSignal([packet], sampleRate: 44_100)
        let (bytes, _, events) = try HiJackSignals.decode(samples, sampleRate: 44_100, generation: .lab11)
        #expect(bytes == packet)
        let format = try FrameFormat(dataBits: 8, parity: .even)
        for framed in [false, true] {
            let analyzer = RecordingAnalyzer(
                name: "t", sampleRate: 44_100, frames: Int64(samples.count), format: "test", modem: "hijack-lab11",
                nominalTones: nil, baud: HiJackGeneration.lab11.boardBaud, gapBits: 20, maxFrequency: 10_000)
            let baud = try #require(events.first?.hijack?.baud)
            let layout = CharacterLayout(
                line: .manchester(inverted: false), baud: baud, format: format, label: "hijack-lab11", framed: framed)
            samples.withUnsafeBufferPointer { analyzer.process($0) }
            for e in events { analyzer.add(e, layout: layout) }
            let a = analyzer.finish()
            let d = try #require(a.details.first)
            #expect(layout.bitCells == (framed ? 11 : 8) && layout.signalCells == (framed ? 10 : 8))
            // Every character's cells lie within the capture, so each is traced.
            #expect(d.traces.count == packet.count * layout.signalCells * d.traceLength, "framed \(framed)")
            // Characters follow each other with no gap: each one's 8 cells end where the next starts.
            let starts = d.events.map(\.startSample)
            for (a, b) in zip(starts, starts.dropFirst()) {
                #expect(abs(Double(b - a) - 8 * 44_100 / baud) < 2)
            }
        }
    }
}
