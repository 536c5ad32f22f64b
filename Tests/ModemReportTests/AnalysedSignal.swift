import BoardModels
import ModemDSP
import ModemTestSupport

@testable import ModemReport

/// `samples` (softmodem-1225 at 44.1 kHz) through the analyzer beside a demodulator, in
/// 1000-sample chunks, as `inspect` runs them.
func analyseSoftModem1225(_ samples: [Float]) throws -> RecordingAnalysis {
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
    return analyzer.finish()
}
