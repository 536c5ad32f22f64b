/// Reads what a capture device queued, for the FSK and HiJack live receivers alike: counts
/// frames, reports each overrun (device or ring) once, and keeps the wall-clock anchor of
/// the stream's start (the earliest instant consistent with every read so far: a sample
/// cannot be delivered before it was recorded).
///
/// A capture that delivers no frames at all for ``CaptureWatchdog/limit`` seconds ends the
/// session with ``LiveError/captureStalled(device:seconds:)``. With ``waitsForDevice`` (the
/// serial bridge, which should outlive a sound server's restart or a card unplugged for a
/// moment) it is a notice instead, and a device that goes away is reopened once a second
/// until it is back; the read after that reports a gap, so the receiver restarts.
public struct CaptureReader {
    /// The device read; a new one after a lost device is reopened.
    public private(set) var capture: any CaptureDevice
    /// Outlives a stalled or vanished device (with notices) instead of ending the session.
    public var waitsForDevice = false
    let context: LiveContext
    private let request: CaptureRequest
    private var watchdog = CaptureWatchdog()
    /// Holds the frames of the last ``read(timeout:)`` at its start (room for four periods).
    public private(set) var buffer: [Float]
    private var seenOverruns = 0
    private var seenDropped = 0
    /// Frames read since capture started.
    public private(set) var received: Int64 = 0
    /// Wall-clock time (``LiveClock`` seconds) of the stream's first sample.
    public private(set) var anchor = Double.infinity
    /// Wall-clock time the last read that brought samples returned.
    public private(set) var lastRead = 0.0
    /// Set while the device is gone: when the next reopen is tried.
    private var reopenAt: Double?
    /// Set by a reopen: the next read that brings audio dates the stream anew.
    private var reanchor = false
    /// Seconds between attempts to reopen a device that went away.
    public static let reopenInterval = 1.0

    /// Opens `request` (by default the context's capture) on the context's system.
    public init(context: LiveContext, request: CaptureRequest? = nil) throws(LiveError) {
        self.context = context
        self.request = request ?? context.capture
        do {
            capture = try context.system.openCapture(self.request)
        } catch {
            throw .device(error)
        }
        buffer = [Float](repeating: 0, count: capture.info.periodFrames * 4)
        context.notices.notice(.captureOpened(capture.info, channel: self.request.channel))
    }

    /// Frames per second the device granted (a reopened device must grant the same).
    public var sampleRate: Double { Double(capture.info.sampleRate) }

    /// Waits up to `timeout` seconds for audio; returns how many frames are in ``buffer`` and
    /// whether audio was lost since the last read (the caller restarts its decoder).
    public mutating func read(timeout: Double) throws(LiveError) -> (frames: Int, overran: Bool) {
        if reopenAt != nil { return try reopen(timeout: timeout) }
        let n: Int
        do {
            n = try buffer.withUnsafeMutableBufferPointer { b throws(AudioDeviceError) in
                try capture.read(into: b, timeout: timeout)
            }
        } catch {
            guard waitsForDevice && error.reason == .disconnected else { throw .device(error) }
            context.notices.notice(.deviceLost(error, .capture))
            capture.stop()
            capture = LostCaptureDevice(capture, error: error)
            reopenAt = context.clock.now() + Self.reopenInterval
            return (0, false)
        }
        let now = context.clock.now()
        let overruns = capture.overruns
        let dropped = capture.droppedFrames
        let overran = overruns != seenOverruns || dropped != seenDropped
        if overran {
            context.notices.notice(.overrun(device: capture.info.name, overruns: overruns, droppedFrames: dropped))
            seenOverruns = overruns
            seenDropped = dropped
        }
        try watch(now: now)
        if n > 0 {
            received += Int64(n)
            let start = now - Double(received) / sampleRate
            anchor = reanchor ? start : min(anchor, start)
            reanchor = false
            lastRead = now
        }
        return (n, overran)
    }

    /// Tries to open the device again once ``reopenInterval`` has passed; waits `timeout`
    /// otherwise. A device back at another rate is an error: the receiver was built for one.
    private mutating func reopen(timeout: Double) throws(LiveError) -> (frames: Int, overran: Bool) {
        let now = context.clock.now()
        guard let due = reopenAt, now >= due else {
            context.clock.sleep(min(timeout, max(0, (reopenAt ?? now) - now)))
            return (0, false)
        }
        let again: any CaptureDevice
        do {
            again = try context.system.openCapture(request)
        } catch {
            guard error.reason == .disconnected || error.reason == .noSuchDevice || error.reason == .noAnswer
            else { throw .device(error) }
            reopenAt = now + Self.reopenInterval
            return (0, false)
        }
        guard again.info.sampleRate == capture.info.sampleRate else {
            again.stop()
            throw .device(
                AudioDeviceError(
                    .unsupported, device: request.device,
                    description:
                        "\(request.device): came back at \(again.info.sampleRate) Hz instead of \(capture.info.sampleRate) Hz"
                ))
        }
        capture = again
        reopenAt = nil
        seenOverruns = 0
        seenDropped = 0
        watchdog = CaptureWatchdog()
        // Time went on while nothing was read: the stream is dated afresh from the next read
        // that brings audio (characters released now, from before the gap, keep the old date).
        reanchor = true
        context.notices.notice(.deviceReopened(again.info, .capture))
        again.start()
        return (0, true)
    }

    /// Applies the watchdog at `now`: throws on a stall unless ``waitsForDevice``.
    private mutating func watch(now: Double) throws(LiveError) {
        guard let event = watchdog.observe(capturedFrames: capture.capturedFrames, now: now) else { return }
        let device = capture.info.name
        switch event {
        case .stalled(let seconds):
            guard waitsForDevice else { throw .captureStalled(device: device, seconds: seconds) }
            context.notices.notice(.captureStalled(device: device, seconds: seconds))
        case .resumed(let seconds):
            context.notices.notice(.captureResumed(device: device, seconds: seconds))
        }
    }

    /// Frames captured, overruns recovered, frames dropped and the thread's priority.
    public var counters: CaptureCounters {
        CaptureCounters(
            framesCaptured: received, overruns: capture.overruns, droppedFrames: capture.droppedFrames,
            isRealTime: capture.isRealTime)
    }
}

/// A capture's running totals.
public struct CaptureCounters: Sendable, Equatable {
    /// Frames read from the device since capture started.
    public var framesCaptured: Int64
    /// Overruns (audio lost by the device) recovered so far.
    public var overruns: Int
    /// Frames dropped because the reader fell behind the ring.
    public var droppedFrames: Int
    /// True when the capture thread runs at real-time priority.
    public var isRealTime: Bool
}
