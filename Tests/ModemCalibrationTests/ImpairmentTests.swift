import CommandLineText
import ModemCalibration
import ModemReport
import Testing

/// Each impairment a real cable path brings, made by a channel model with a known value,
/// is found within the tolerance the test states, and the advice names it.
@Suite struct ImpairmentTests {
    static func run(_ channel: LoopbackChannel, hijack: Bool = false) -> LoopbackReport {
        LoopbackTest(sampleRate: channel.sampleRate, hijack: hijack).run(channel.path)
    }

    /// Every byte test passed.
    static func expectBytesPass(_ r: LoopbackReport) {
        for b in r.bytes { #expect(b.passed, "\(b)") }
    }

    static func advises(_ r: LoopbackReport, _ words: String) -> Bool {
        LoopbackAdvice.lines(r.verdict).contains { $0.contains(words) }
    }

    @Test(arguments: [200.0, -200.0, 35.0])
    func clockDriftIsMeasuredToTwoPPM(ppm: Double) {
        let r = Self.run(LoopbackChannel(delay: 700, driftPPM: ppm))
        let m = r.measurements
        #expect(abs((m.driftPPM ?? 0) - ppm) < 2, "\(String(describing: m.driftPPM))")
        #expect(abs((m.chirpDriftPPM ?? 0) - ppm) < 10, "\(String(describing: m.chirpDriftPPM))")
        // The drifting clock moves the opening chirp (at 0.25 s) by ppm too; the model's
        // interpolator adds a delay of its own of about a sample.
        let expected = 700 + 0.25 * 44_100 * ppm * 1e-6
        #expect(abs((m.latencySeconds ?? 0) * 44_100 - expected) < 2)
        // Segments are still found where they landed: the response stays flat (up to 5 kHz:
        // the model's cubic interpolation itself rolls off the top of the band).
        #expect(m.response.filter { $0.frequency < 5000 }.allSatisfy { abs($0.relativeDB) < 0.5 })
        Self.expectBytesPass(r)
    }

    @Test func latencyIsFoundToASampleUpToTheLimit() {
        for delay in [0, 1, 13_000, Int(0.55 * 44_100)] {
            let m = Self.run(LoopbackChannel(delay: delay)).measurements
            #expect(
                abs((m.latencySeconds ?? -1) * 44_100 - Double(delay)) < 0.5,
                "delay \(delay): \(String(describing: m.latencySeconds))")
        }
    }

    @Test func voiceBandLowPassLimitsTheProfilesToThoseBelowIt() {
        let r = Self.run(LoopbackChannel(lowPass: 4000))
        let band = ResponseSummary(r.measurements.response)
        // Two Butterworth sections at 4 kHz are 6 dB down there: the edge is the last sixth-
        // octave step above -6 dB.
        #expect((3_200...4_100).contains(band.highEdge ?? 0), "\(String(describing: band.highEdge))")
        #expect(r.measurements.resampler?.detected == false)
        let tested = Set(r.bytes.map(\.modem))
        #expect(tested == ["softmodem-315", "softmodem-126", "softmodem-126-8mhz", "bell103", "bell202"], "\(tested)")
        Self.expectBytesPass(r)
        #expect(r.verdict.status == .usable)
        #expect(Self.advises(r, "cuts above"))
    }

    @Test func noiseSuppressionNotchIsFound() {
        let r = Self.run(LoopbackChannel(notch: (2000, 4)))
        let notches = ResponseSummary(r.measurements.response).notches
        #expect(notches.count == 1 && abs((notches.first ?? 0) / 2000 - 1) < 0.06, "\(notches)")
        #expect(Self.advises(r, "notch near 2 kHz"))
    }

    @Test func clippingBeforeTheCaptureSetsTheRecommendedLevel() {
        // The path clips at 0.25 (-12 dBFS): the -12 dBFS rung just reaches it, -9 clips.
        let r = Self.run(LoopbackChannel(gainDB: 0, clipLevel: 0.25))
        let m = r.measurements
        #expect(m.maxCleanOutputDBFS == -12)
        #expect(abs((m.captureClipDBFS ?? 0) + 12) < 1, "\(String(describing: m.captureClipDBFS))")
        #expect(r.verdict.recommendedOutputDBFS == -15)
        #expect(Self.advises(r, "capture clips at -12"))
        #expect(r.bytes.allSatisfy { $0.levelDBFS == -15 })
        Self.expectBytesPass(r)
    }

    @Test func captureFullScaleIsAClip() {
        // 9 dB of gain: the -9 dBFS rung reaches full scale.
        let m = Self.run(LoopbackChannel(gainDB: 9, clipLevel: 1)).measurements
        #expect(m.maxCleanOutputDBFS == -12)
        #expect(abs((m.captureClipDBFS ?? -9) - 0) < 0.5)
    }

    @Test func automaticGainControlIsDetectedAndNotMistakenForClipping() {
        let r = Self.run(LoopbackChannel(agc: true))
        let agc = r.measurements.agc
        #expect(agc?.detected == true)
        #expect((agc?.capturedStepDB ?? 18) < 6, "\(String(describing: agc))")
        #expect(r.measurements.levels.allSatisfy { !$0.compressed })
        #expect(Self.advises(r, "automatic gain control"))
    }

    @Test func converterAntiAliasFilterIsReportedAsAResampler() {
        let r = Self.run(LoopbackChannel(viaRate: 48_000, antiAlias: 17_000))
        #expect(r.measurements.resampler?.detected == true, "\(String(describing: r.measurements.resampler))")
        // The model's cubic interpolation droops a little below the filter's corner.
        #expect(r.measurements.response.filter { $0.frequency < 13_000 }.allSatisfy { abs($0.relativeDB) < 1.5 })
        #expect(Self.advises(r, "sample-rate converter"))
        #expect(!Self.advises(r, "cuts above"))
        Self.expectBytesPass(r)
    }

    @Test func humAndInvertedPolarityAreReported() {
        let r = Self.run(LoopbackChannel(inverted: true, humDBFS: -50))
        let m = r.measurements
        #expect(m.humFrequency == 50)
        #expect(abs(m.humDBFS + 50) < 1)
        #expect(m.inverted)
        #expect(abs((m.latencySeconds ?? 0) * 44_100 - 1234) < 0.5)
        #expect(Self.advises(r, "mains hum at 50 Hz"))
        Self.expectBytesPass(r)
    }

    @Test func silentPathFailsWithoutFalseMeasurements() {
        let r = Self.run(LoopbackChannel(silent: true))
        #expect(!r.measurements.signalReturned)
        #expect(r.measurements.latencySeconds == nil && r.measurements.driftPPM == nil)
        #expect(r.bytes.isEmpty)
        #expect(r.verdict.status == .fail)
        #expect(Self.advises(r, "nothing came back"))
    }

    @Test func idealPathAt8kHzTestsOnlyTheProfilesThatFit() {
        let r = Self.run(LoopbackChannel(delay: 333, sampleRate: 8_000))
        #expect(abs((r.measurements.latencySeconds ?? 0) * 8_000 - 333) < 0.5)
        #expect(abs(r.measurements.driftPPM ?? 99) < 2)
        #expect(r.measurements.resampler?.detected == false)
        #expect(
            Set(r.bytes.map(\.modem)) == ["softmodem-315", "softmodem-126", "softmodem-126-8mhz", "bell103", "bell202"])
        Self.expectBytesPass(r)
    }

    @Test func idealPathAt48kHz() {
        let r = Self.run(LoopbackChannel(delay: 4800, sampleRate: 48_000))
        #expect(abs((r.measurements.latencySeconds ?? 0) - 0.1) < 1e-4)
        #expect(r.verdict.status == .ok, "\(LoopbackAdvice.lines(r.verdict))")
    }
}
