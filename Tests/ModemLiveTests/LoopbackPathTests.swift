import ModemLive
import Testing

/// The loopback self-test's live path over the in-memory device wired as a cable (its
/// playback heard in its own capture): what comes back, a gap played again, a stalled
/// capture, a device that goes away, a stop request.
@Suite struct LoopbackPathTests {
    /// A ramp of distinct values, so any sample lost, repeated or moved shows.
    static let timeline: [Float] = (0..<44_100).map { Float($0 % 1000) / 2000 + 0.1 }

    /// A cable 3 periods long on a fresh clock.
    func cable() -> (MemoryAudioSystem, LiveContext, NoticeLog) {
        let (system, context, log) = memoryLine(echoGain: 1)
        system.echoDelayFrames = 3 * system.periodFrames
        return (system, context, log)
    }

    func open(_ context: LiveContext) throws -> LoopbackPath {
        var path = try LoopbackPath(context: context) { _ in 441 }
        path.start()
        return path
    }

    /// The capture from the moment the timeline was queued: the timeline itself, late by
    /// the cable, every sample in its place; nothing replayed.
    @Test func theTimelineComesBackWhole() throws {
        let (_, context, log) = cable()
        var path = try open(context)
        defer { path.finish() }
        let captured = try path.play(Self.timeline) { _ in }
        #expect(captured.count == Self.timeline.count)
        let delay = try #require(captured.firstIndex { $0 > 0.05 })
        #expect(delay > 0 && delay < 44_100 / 2)
        let inPlace = Array(captured[delay...]) == Array(Self.timeline.prefix(captured.count - delay))
        #expect(inPlace, "the capture is the timeline, late by \(delay) frames")
        #expect(!log.notices.contains { if case .timelineReplayed = $0 { true } else { false } })
    }

    /// An overrun in the capture breaks the timeline: it is announced and played again,
    /// and the replay comes back whole.
    @Test func aGapIsPlayedAgainOnce() throws {
        let (system, context, log) = cable()
        system.faults = [.overrun(at: 0.5, lostFrames: 441)]
        var path = try open(context)
        defer { path.finish() }
        let captured = try path.play(Self.timeline) { _ in }
        #expect(log.notices.contains { if case .timelineReplayed = $0 { true } else { false } })
        let delay = try #require(captured.firstIndex { $0 > 0.05 })
        let inPlace = Array(captured[delay...]) == Array(Self.timeline.prefix(captured.count - delay))
        #expect(inPlace, "the replay's capture is the timeline, late by \(delay) frames, with nothing of the first try")
    }

    /// What ends a timeline on the cable with `faults` (and a stop request, when `stopped`);
    /// nil, with an issue recorded, when the timeline came back.
    func failure(_ faults: [MemoryFault], stopped: Bool = false) throws -> LoopbackPathError? {
        let (system, context, _) = cable()
        system.faults = faults
        var path = try open(context)
        defer { path.finish() }
        if stopped { context.stop.request() }
        do {
            _ = try path.play(Self.timeline) { _ in }
            Issue.record("the timeline came back despite \(faults)\(stopped ? " and a stop request" : "")")
            return nil
        } catch {
            return error
        }
    }

    /// A gap in the timeline and another in its replay: the timing is lost.
    @Test func twoGapsEndTheTest() throws {
        let error = try failure((1...40).map { .overrun(at: 0.25 * Double($0), lostFrames: 441) })
        guard case .gapTwice = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }

    /// A capture that delivers nothing for longer than the watchdog allows ends the test
    /// with the device's name and how long it was silent.
    @Test func aStalledCaptureIsNamed() throws {
        let error = try failure([.stall(at: 0.3, seconds: 10)])
        guard case .captureStalled(let device, let seconds) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(device == "memory" && seconds >= 2)
    }

    /// The device goes away mid-timeline: a device error naming it, no timeline.
    @Test func anUnpluggedDeviceIsAnError() throws {
        let error = try failure([.unplug(at: 0.4, seconds: nil)])
        guard case .device(let e) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(e.device == "memory")
    }

    /// A stop request ends the timeline at once.
    @Test func aStopRequestInterrupts() throws {
        let error = try failure([], stopped: true)
        guard case .interrupted = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }

    /// A device that does not exist fails to open, naming it.
    @Test func anUnknownDeviceFailsToOpen() {
        let (_, context, _) = cable()
        var other = context
        other.playback.device = "nowhere"
        do {
            _ = try LoopbackPath(context: other) { _ in 441 }
            Issue.record("an unknown device opened")
        } catch .device(let error) {
            #expect(error.reason == .noSuchDevice)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
