import BoardModels
import CommandLineText
import ModemCalibration
import ModemReport
import Testing

/// The loopback test's analysis on channel models with known impairments: each is found
/// within the stated tolerance, and an ideal path raises no alarm.
@Suite struct PathAnalysisTests {
    static func run(_ channel: LoopbackChannel, hijack: Bool = false) -> LoopbackReport {
        LoopbackTest(sampleRate: channel.sampleRate, hijack: hijack).run(channel.path)
    }

    @Test func idealPathFindsLatencyPassesEveryByteAndRaisesNoAlarm() {
        let r = Self.run(LoopbackChannel(delay: 2345), hijack: true)
        let m = r.measurements
        #expect(m.signalReturned)
        // Latency to a tenth of a sample, drift to 1 ppm, gain to 0.2 dB, noise floor to 2 dB.
        #expect(abs((m.latencySeconds ?? 0) * 44_100 - 2345) < 0.1)
        #expect(abs(m.driftPPM ?? 99) < 1)
        #expect(abs((m.gainDB ?? 0) + 3) < 0.2)
        #expect(abs(m.noiseFloorDBFS + 85) < 2)
        #expect(m.humFrequency == nil)
        #expect(m.response.allSatisfy { abs($0.relativeDB) < 0.5 })
        #expect(m.agc?.detected == false)
        #expect(m.resampler?.detected == false)
        #expect(m.captureClipDBFS == nil)
        #expect(m.maxCleanOutputDBFS == -1)
        #expect(!m.inverted)
        #expect(r.bytes.count == 10)
        ImpairmentTests.expectBytesPass(r)
        #expect(r.verdict.status == .ok, "\(LoopbackAdvice.lines(r.verdict))")
        #expect(r.verdict.recommendedOutputDBFS == -1)
    }
}
