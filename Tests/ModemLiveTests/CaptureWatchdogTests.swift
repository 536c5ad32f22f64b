import ModemLive
import Testing

/// The watchdog's rule on explicit time: frames keep it quiet, none for its limit is one
/// stall (not one per call), and frames after it are one resume.
@Suite struct CaptureWatchdogTests {
    @Test func framesAtAnyPaceNeverStall() {
        var dog = CaptureWatchdog(limit: 2)
        var frames = 0
        for step in 0..<1000 {
            // A period every 1.9 s: slow, but never 2 s without a frame.
            if step % 19 == 0 { frames += 441 }
            #expect(dog.observe(capturedFrames: frames, now: Double(step) * 0.1) == nil)
        }
        #expect(!dog.isStalled)
    }

    @Test func noFramesFromTheStartIsOneStallThenOneResume() {
        var dog = CaptureWatchdog(limit: 2)
        var events: [CaptureWatchdog.Event] = []
        for step in 0...50 {
            if let e = dog.observe(capturedFrames: 0, now: 10 + Double(step) * 0.1) { events.append(e) }
        }
        #expect(events.count == 1)
        guard case .stalled(let seconds) = events.first else {
            Issue.record("expected a stall, got \(events)")
            return
        }
        #expect(abs(seconds - 2) < 0.11)
        #expect(dog.isStalled)
        #expect(dog.observe(capturedFrames: 441, now: 16) == .resumed(afterSeconds: 6))
        #expect(!dog.isStalled)
        #expect(dog.observe(capturedFrames: 441, now: 17.9) == nil)
        #expect(dog.observe(capturedFrames: 441, now: 18.0) == .stalled(seconds: 2))
    }

    @Test func theWatchStartsAtTheFirstLookNotAtZero() {
        var dog = CaptureWatchdog(limit: 2)
        // A first read long after the clock's zero is not a stall of that length.
        #expect(dog.observe(capturedFrames: 0, now: 1000) == nil)
        #expect(dog.observe(capturedFrames: 0, now: 1001.9) == nil)
        guard case .stalled(let seconds) = dog.observe(capturedFrames: 0, now: 1002.1) else {
            Issue.record("expected a stall 2.1 s after the first look")
            return
        }
        #expect(abs(seconds - 2.1) < 1e-9)
    }
}
