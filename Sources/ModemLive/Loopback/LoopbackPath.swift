/// The live path of the loopback self-test: a playback device kept open and a capture
/// device, both running from ``start()`` to ``finish()``. ``play(_:progress:)`` queues a
/// timeline and returns what the capture recorded from the moment it was queued, as long as
/// the timeline.
///
/// A gap in either stream (an overrun or underrun on a busy machine, filler silence while
/// samples were still to be given) breaks the timeline: that part is played again once,
/// announced as ``LiveNotice/timelineReplayed``, and a second gap is
/// ``LoopbackPathError/gapTwice``. Time comes from the context's clock and the stop request
/// from its flag, so the same path runs on ALSA and on a ``MemoryAudioSystem``.
public struct LoopbackPath {
    /// The playback device, kept open between timelines.
    public let playback: any PlaybackDevice
    /// The capture device, at the rate the playback got.
    public let capture: any CaptureDevice
    private let context: LiveContext
    private var buffer: [Float]

    /// Opens `context.playback` (kept open, no lead-in, a 1 s ring), then the capture of
    /// `context.capture` at the rate the playback got (exactly, a 4 s ring), with
    /// `capturePeriodFrames(rate)` frames a period.
    public init(context: LiveContext, capturePeriodFrames: (Int) -> Int) throws(LoopbackPathError) {
        var playbackRequest = context.playback
        playbackRequest.keepOpen = true
        playbackRequest.leadIn = 0
        playbackRequest.ringSeconds = 1
        do {
            playback = try context.system.openPlayback(playbackRequest)
            var captureRequest = context.capture
            captureRequest.sampleRate = playback.info.sampleRate
            captureRequest.rateIsExact = true
            captureRequest.periodFrames = capturePeriodFrames(playback.info.sampleRate)
            captureRequest.ringSeconds = 4
            capture = try context.system.openCapture(captureRequest)
        } catch {
            throw .device(error)
        }
        self.context = context
        buffer = [Float](repeating: 0, count: 1024)
    }

    /// The rate both devices run at.
    public var sampleRate: Double { Double(capture.info.sampleRate) }

    /// Starts both devices.
    public func start() {
        capture.start()
        playback.start()
    }

    /// Stops both devices at once, discarding what is queued.
    public func finish() {
        playback.abort()
        capture.stop()
    }

    /// Reads what the capture has (waiting up to `timeout` seconds) into ``buffer``.
    private mutating func read(timeout: Double) throws(LoopbackPathError) -> Int {
        let capture = self.capture
        do {
            return try buffer.withUnsafeMutableBufferPointer { b throws(AudioDeviceError) in
                try capture.read(into: b, timeout: timeout)
            }
        } catch {
            throw .device(error)
        }
    }

    /// Plays `signal` while capturing; `progress` gets the seconds of it played so far.
    public mutating func play(_ signal: [Float], progress: (Double) -> Void) throws(LoopbackPathError) -> [Float] {
        if let captured = try attempt(signal, progress: progress) { return captured }
        context.notices.notice(.timelineReplayed)
        try settle()
        if let captured = try attempt(signal, progress: progress) { return captured }
        throw .gapTwice
    }

    /// Seconds of quiet line a replay waits for once the broken attempt's queued audio has
    /// left the ring and the device's buffer: the path's own delay (a sound server's, a
    /// board's echo) is well under it.
    static let settleSeconds = 0.5

    /// Lets what a broken attempt left queued (up to the ring's second) play out, reading
    /// and discarding the capture meanwhile, so a replay starts on a quiet line. Without
    /// it the replay's capture began with the broken attempt's tail and lost its own end.
    private mutating func settle() throws(LoopbackPathError) {
        let started = context.clock.now()
        var quietAt: Double?
        while true {
            if context.stop.isRequested { throw .interrupted }
            _ = try read(timeout: 0.05)
            let now = context.clock.now()
            if playback.pendingFrames > 0 {
                quietAt = nil
            } else if quietAt == nil {
                // What the device (and a sound server behind it) still holds plays first.
                quietAt = now + playback.queuedSeconds + Self.settleSeconds
            }
            if let quietAt, now >= quietAt { return }
            if now - started > 10 { throw .playbackStopped(device: playback.info.name) }
        }
    }

    /// Frames lost so far on either side.
    private var lostFrames: Int { capture.overruns + capture.droppedFrames + playback.underruns }

    /// One try at ``play(_:progress:)``; nil when a stream had a gap.
    private mutating func attempt(_ signal: [Float], progress: (Double) -> Void) throws(LoopbackPathError)
        -> [Float]?
    {
        // What the capture holds from before is not part of the answer.
        while try read(timeout: 0) > 0 {}
        var captured: [Float] = []
        captured.reserveCapacity(signal.count + buffer.count)
        var written = 0
        let fillerBefore = playback.silenceFrames
        let lostBefore = lostFrames
        let started = context.clock.now()
        let limit = Double(signal.count) / sampleRate + 10
        var watchdog = CaptureWatchdog()
        while captured.count < signal.count {
            if context.stop.isRequested { throw .interrupted }
            if written < signal.count {
                let end = min(signal.count, written + buffer.count)
                do {
                    try signal.withUnsafeBufferPointer { s throws(AudioDeviceError) in
                        try playback.write(UnsafeBufferPointer(rebasing: s[written..<end]))
                    }
                } catch {
                    throw .device(error)
                }
                written = end
                // Filler silence while we still had samples to give is a hole in the timeline.
                if playback.silenceFrames > fillerBefore + 2 * playback.info.periodFrames { return nil }
            }
            let n = try read(timeout: written < signal.count ? 0 : 0.05)
            if lostFrames != lostBefore { return nil }
            captured.append(contentsOf: buffer[0..<n])
            progress(min(Double(captured.count), Double(written)) / sampleRate)
            let now = context.clock.now()
            if case .stalled(let seconds) = watchdog.observe(capturedFrames: capture.capturedFrames, now: now) {
                throw .captureStalled(device: capture.info.name, seconds: seconds)
            }
            if now - started > limit { throw .captureStopped(device: capture.info.name) }
        }
        return Array(captured.prefix(signal.count))
    }
}

/// Why the loopback path ended.
public enum LoopbackPathError: Error, Sendable {
    /// A device could not be opened, or failed while running.
    case device(AudioDeviceError)
    /// The stop request came.
    case interrupted
    /// The streams had a gap in a timeline and again in its replay: the timing is lost.
    case gapTwice
    /// The capture delivered no frames for `seconds`.
    case captureStalled(device: String, seconds: Double)
    /// The capture delivered frames, but too few to finish the timeline 10 s after its end.
    case captureStopped(device: String)
    /// The playback did not play out what it held within 10 s, before a replay.
    case playbackStopped(device: String)
}
