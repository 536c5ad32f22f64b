/// Notices a capture that delivers no frames at all, and its return.
///
/// A running capture delivers frames at its rate whatever it hears: silence is frames too.
/// No frames for seconds means the stream is not running (a stream that was never started,
/// a device that is suspended or gone, a stopped or stuck sound server), which waiting
/// longer will not mend. Time is the caller's (`now`, monotonic seconds), so the rule is
/// tested without a clock.
///
/// Fed the running total of captured frames (``CaptureDevice/capturedFrames``) at each
/// read. The first call only starts the watch; ``Event/stalled(seconds:)`` is returned once
/// per stall, and ``Event/resumed(afterSeconds:)`` when frames come again after it.
public struct CaptureWatchdog: Sendable {
    /// What ``observe(capturedFrames:now:)`` found: a stall begun or ended.
    public enum Event: Sendable, Equatable {
        /// No frames for `seconds` (at least ``CaptureWatchdog/limit``).
        case stalled(seconds: Double)
        /// Frames came again, `afterSeconds` after the last ones before the stall.
        case resumed(afterSeconds: Double)
    }

    /// Seconds without a frame that count as a stall. Two seconds: ten times the longest
    /// period a sound server or card uses (`--latency 2000` splits into 500 ms periods),
    /// and within the three seconds a user waits for a word.
    public let limit: Double
    private var frames = 0
    private var lastChange: Double?
    private var stalled = false

    /// Watches for `limit` seconds without a frame (two by default).
    public init(limit: Double = 2) {
        self.limit = limit
    }

    /// Whether the last call found a stall that has not ended.
    public var isStalled: Bool { stalled }

    /// Looks at the total of frames captured so far, at `now`.
    public mutating func observe(capturedFrames total: Int, now: Double) -> Event? {
        guard let since = lastChange else {
            lastChange = now
            frames = total
            return nil
        }
        if total != frames {
            frames = total
            lastChange = now
            guard stalled else { return nil }
            stalled = false
            return .resumed(afterSeconds: now - since)
        }
        guard !stalled, now - since >= limit else { return nil }
        stalled = true
        return .stalled(seconds: now - since)
    }
}
