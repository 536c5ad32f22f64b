import ModemALSA
import Testing

/// The position rule on explicit time: a source that started at 0 s has made `rate * t`
/// frames by `t`, less what the server dropped; each read takes a period and the device's
/// delay holds the rest (plus the `wander` a device's delay estimate has).
@Suite struct CapturePositionCheckTests {
    struct Source {
        /// When the stream started.
        var start = 0.0
        var rate = 44_100.0
        var period = 1102
        var lostFrames = 0.0
        var framesRead = 0
        /// Seconds of audio lost in total, as reported.
        var reported: [Double] = []

        /// One read at `t`, the delay off by `wander` seconds.
        mutating func read(_ check: inout CapturePositionCheck, at t: Double, wander: Double = 0) {
            framesRead += period
            let produced = (t - start) * rate - lostFrames
            let delay = Int((produced - Double(framesRead) + wander * rate).rounded())
            let lost = check.lostSeconds(got: period, delay: delay, now: t)
            if lost > 0 { reported.append(lost) }
        }

        /// Reads a period's time apart from `from` to `to`, each `late` seconds after its audio.
        mutating func run(
            _ check: inout CapturePositionCheck, from: Double, to: Double, clock: Double = 1, late: Double = 0,
            wander: (Int) -> Double = { _ in 0 }
        ) {
            var t = from
            var k = 0
            while t < to {
                read(&check, at: t * clock + late, wander: wander(k))
                t += Double(period) / rate
                k += 1
            }
        }
    }

    @Test func tenMinutesOfAClock300PpmOffAreNoLoss() {
        var check = CapturePositionCheck(rate: 44_100)
        var source = Source()
        source.run(&check, from: 0.1, to: 600, clock: 1.0003)
        #expect(source.reported.isEmpty)
    }

    @Test func oneQuantumDroppedIsReportedOnceWithItsLength() {
        var check = CapturePositionCheck(rate: 44_100)
        var source = Source()
        source.run(&check, from: 0.1, to: 5)
        source.lostFrames = 1024
        source.run(&check, from: 5, to: 10)
        #expect(source.reported.count == 1)
        #expect(abs((source.reported.first ?? 0) - 1024 / 44_100) < 0.001)
    }

    @Test func aQuarterSecondOfMisreportedDelayIsNoLoss() {
        // A graph renegotiating its quantum: the delay 40 ms short, then right again.
        var check = CapturePositionCheck(rate: 44_100)
        var source = Source()
        source.run(&check, from: 0.1, to: 5)
        source.run(&check, from: 5, to: 5.25, wander: { _ in -0.04 })
        source.run(&check, from: 5.25, to: 10)
        #expect(source.reported.isEmpty)
    }

    @Test func readsLateForAWhileAreNoLoss() {
        // A busy machine: every read 15 ms after its audio for 0.8 s. The position is still
        // right, so nothing moves (the clock of the read is not the source's).
        var check = CapturePositionCheck(rate: 44_100)
        var source = Source()
        source.run(&check, from: 0.1, to: 5)
        source.run(&check, from: 5, to: 5.8, late: 0.015)
        source.run(&check, from: 5.8, to: 10)
        #expect(source.reported.isEmpty)
    }

    @Test func aWanderingDelayThatSettlesHigherIsNoLossButAQuantumBeyondItIs() {
        // A delay estimate wandering over 12 ms (a pseudo-random pattern) settles 8 ms higher:
        // within the wander, no loss. A 46 ms drop later stands out of it.
        var check = CapturePositionCheck(rate: 44_100)
        var source = Source()
        let wander: (Int) -> Double = { k in Double((k &* 7919) % 13) * -0.001 }
        source.run(&check, from: 0.1, to: 5, wander: wander)
        source.run(&check, from: 5, to: 10, wander: { k in wander(k) - 0.008 })
        #expect(source.reported.isEmpty)
        source.lostFrames = 2048
        source.run(&check, from: 10, to: 15, wander: { k in wander(k) - 0.008 })
        #expect(source.reported.count == 1)
    }

    @Test func aRestartedStreamStartsAfresh() {
        // After an overrun's recovery the stream counts from zero again.
        var check = CapturePositionCheck(rate: 44_100)
        var source = Source()
        source.run(&check, from: 0.1, to: 5)
        check.restart()
        var again = Source(start: 5)
        again.run(&check, from: 5.05, to: 10)
        #expect(source.reported.isEmpty && again.reported.isEmpty)
    }

    @Test func aDeviceThatCannotTellItsDelayIsNeverJudged() {
        var check = CapturePositionCheck(rate: 44_100)
        var t = 0.0
        var lost = 0.0
        while t < 10 {
            lost += check.lostSeconds(got: 1102, delay: nil, now: t)
            t += t < 5 ? 0.025 : 0.05  // half the audio from 5 s on: nothing to judge it by
        }
        #expect(lost == 0)
    }
}
