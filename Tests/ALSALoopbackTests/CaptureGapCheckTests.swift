import ModemALSA
import Testing

/// The gap rule on explicit time (44.1 kHz, a 40 ms buffer of 10 ms periods).
@Suite struct CaptureGapCheckTests {
    /// Reads of one period every `step` seconds from `from` to `to`; true if any reported a gap.
    private func steady(
        _ check: inout CaptureGapCheck, from: Double, to: Double, step: Double = 0.01, queued: Int = 0
    ) -> Bool {
        var lost = false
        var t = from
        while t < to - 1e-9 {
            lost = check.lostAudio(got: 441, now: t + step, previous: t, queued: { queued }) || lost
            t += step
        }
        return lost
    }

    @Test func steadyReadsAndAClockOffByAFewHundredPpmAreNoGap() {
        var check = CaptureGapCheck(rate: 44_100, bufferFrames: 1764, periodFrames: 441)
        // The device's clock 300 ppm slow against the monotonic clock, for ten minutes.
        #expect(!steady(&check, from: 0, to: 600, step: 0.01 * 1.0003))
    }

    @Test func aStallWhoseAudioTheServerKeptIsNoGap() {
        var check = CaptureGapCheck(rate: 44_100, bufferFrames: 1764, periodFrames: 441)
        // Away 300 ms, then the backlog (13,230 frames) in quick reads, the buffer not full.
        let first = check.lostAudio(got: 441, now: 0.31, previous: 0.01, queued: { 441 })
        #expect(!first)
        var t = 0.31
        var lost = false
        for _ in 0..<29 {
            lost = check.lostAudio(got: 441, now: t + 0.001, previous: t, queued: { 0 }) || lost
            t += 0.001
        }
        lost = steady(&check, from: t, to: 1) || lost
        #expect(!lost)
    }

    @Test func aStallWhoseAudioTheGraphSkippedIsOneGap() {
        var check = CaptureGapCheck(rate: 44_100, bufferFrames: 1764, periodFrames: 441)
        // Away 250 ms (the pipewire plugin under SIGSTOP): nothing made up afterwards.
        var count = check.lostAudio(got: 441, now: 0.26, previous: 0.01, queued: { 0 }) ? 1 : 0
        var t = 0.26
        while t < 2 {
            if check.lostAudio(got: 441, now: t + 0.01, previous: t, queued: { 0 }) { count += 1 }
            t += 0.01
        }
        #expect(count == 1)
    }

    @Test func aFullBufferAfterAStallIsAGapAtOnce() {
        var check = CaptureGapCheck(rate: 44_100, bufferFrames: 1764, periodFrames: 441)
        let lost = check.lostAudio(got: 441, now: 0.31, previous: 0.01, queued: { 1764 })
        #expect(lost)
    }
}

extension CaptureGapCheckTests {
    @Test func aStallEndedByAnEmptyReturnIsStillJudged() {
        var check = CaptureGapCheck(rate: 44_100, bufferFrames: 1764, periodFrames: 441)
        // Away 250 ms; the first return brings nothing, the reads after it one period each.
        var count = check.lostAudio(got: 0, now: 0.26, previous: 0.01, queued: { 0 }) ? 1 : 0
        var t = 0.26
        while t < 2 {
            if check.lostAudio(got: 441, now: t + 0.01, previous: t, queued: { 0 }) { count += 1 }
            t += 0.01
        }
        #expect(count == 1)
    }
}
