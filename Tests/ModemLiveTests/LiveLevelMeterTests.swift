import ModemDSP
import ModemLive
import ModemSpectrum
import RealModule
import Testing

/// `level` on the in-memory device and its virtual clock: the readings measure what the far
/// end sends, and the duration or a stop ends the run.
@Suite struct LiveLevelMeterTests {
    /// A sine of `amplitude` at `frequency` for `seconds` at 44.1 kHz.
    static func tone(_ frequency: Double, amplitude: Double, seconds: Double) -> [Float] {
        (0..<Int(seconds * 44_100)).map {
            Float(amplitude * Double.sin(2 * Double.pi * frequency * Double($0) / 44_100))
        }
    }

    @Test(.timeLimit(.minutes(1))) func readingsFollowTheFarEndsToneUntilTheDurationEnds() throws {
        let (system, context, _) = memoryLine()
        let far = ScriptedFarEnd()
        let tone = Self.tone(7350, amplitude: 0.5, seconds: 3)
        far.play(tone, atFrame: 0)
        system.farEnd = far
        var live = try LiveLevelMeter(profile: .softmodem1225, context: context)
        var readings: [LevelReading] = []
        try live.run(for: 1.0) { readings.append($0.reading) }
        #expect(context.clock.now() >= 1.0 && context.clock.now() < 1.2)
        // A reading every tenth of a second, each handed over once.
        #expect((8...11).contains(readings.count), "\(readings.count) readings")
        #expect(readings.count == live.meter.readingCount)
        let last = try #require(readings.last)
        // A sine of amplitude 0.5: RMS -9.0 dBFS; the peak is the largest sample (six samples a
        // cycle at 7350 Hz reach 0.5 sin 60 degrees, -7.3 dBFS).
        let peak = Decibels.amplitude(Double(tone.map { abs($0) }.max() ?? 0))
        #expect(abs(last.peakDBFS - peak) < 0.01 && abs(last.rmsDBFS + 9.03) < 0.1, "\(last)")
    }

    @Test(.timeLimit(.minutes(1))) func aStopEndsItWithoutADuration() throws {
        let (_, context, _) = memoryLine()
        var live = try LiveLevelMeter(profile: .softmodem1225, context: context)
        var count = 0
        try live.run(for: nil) { _ in
            count += 1
            if count == 3 { context.stop.request() }
        }
        #expect(count == 3 && live.meter.readingCount == 3)
        #expect(live.meter.reading.rmsDBFS == -.infinity || live.meter.reading.rmsDBFS < -100)
    }
}
