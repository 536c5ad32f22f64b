public import ModemLive

/// ALSA as a ``ModemLive/AudioSystem``: opens ``CaptureStream``s and ``PlaybackStream``s
/// (each on a dedicated thread with a lock-free ring) behind the device protocols.
public struct ALSAAudioSystem: AudioSystem {
    /// Bounds each open and says what ends the wait early.
    public var openLimit: ALSAOpenLimit

    /// Opens devices within `openLimit` (by default 5 seconds, never cancelled).
    public init(openLimit: ALSAOpenLimit = ALSAOpenLimit()) {
        self.openLimit = openLimit
    }

    /// Opens a ``CaptureStream`` as `r` asks; an ``ALSAError`` becomes an ``AudioDeviceError`` with
    /// the same reason and account.
    public func openCapture(_ r: CaptureRequest) throws(AudioDeviceError) -> any CaptureDevice {
        do {
            return ALSACaptureDevice(
                try CaptureStream(
                    device: r.device, sampleRate: r.sampleRate, periodFrames: r.periodFrames, periods: r.periods,
                    ringSeconds: r.ringSeconds, channel: r.channel, limit: openLimit, exactRate: r.rateIsExact))
        } catch {
            throw AudioDeviceError(error)
        }
    }

    /// Opens a ``PlaybackStream`` as `r` asks; an ``ALSAError`` becomes an ``AudioDeviceError`` with
    /// the same reason and account.
    public func openPlayback(_ r: PlaybackRequest) throws(AudioDeviceError) -> any PlaybackDevice {
        do {
            return ALSAPlaybackDevice(
                try PlaybackStream(
                    device: r.device, sampleRate: r.sampleRate, periodFrames: r.periodFrames, periods: r.periods,
                    keepOpen: r.keepOpen, leadIn: r.leadIn, ringSeconds: r.ringSeconds, channels: r.channels,
                    limit: openLimit, exactRate: r.rateIsExact))
        } catch {
            throw AudioDeviceError(error)
        }
    }
}

extension AudioDeviceError {
    /// The ALSA error's reason and its full one-line account.
    public init(_ error: ALSAError) {
        let reason: Reason =
            switch error.reason {
            case .noSuchDevice: .noSuchDevice
            case .busy: .busy
            case .unsupported: .unsupported
            case .noAnswer: .noAnswer
            case .interrupted: .interrupted
            case .disconnected: .disconnected
            case .failed: .failed
            }
        self.init(reason, device: error.device, description: error.description)
    }
}

extension ALSAPCM {
    /// What the device granted, for ``AudioDeviceInfo``.
    public var info: AudioDeviceInfo {
        AudioDeviceInfo(
            name: device, sampleRate: sampleRate, convertedFromRate: convertedFromRate, channels: channels,
            format: format.rawValue, periodFrames: periodFrames, bufferFrames: bufferFrames, plugin: plugin)
    }
}

/// A ``CaptureStream`` behind ``ModemLive/CaptureDevice``.
public final class ALSACaptureDevice: CaptureDevice {
    /// The ALSA stream behind this device.
    public let stream: CaptureStream
    /// What the device granted, read once when it opened.
    public let info: AudioDeviceInfo

    /// Wraps an opened stream; its PCM's granted settings become ``info``.
    public init(_ stream: CaptureStream) {
        self.stream = stream
        info = stream.pcm.info
    }

    /// Frames the device may hold before they are read: the periods asked, not the whole buffer.
    public var latencyFrames: Int { stream.latencyFrames }
    /// Overruns (and suspends) recovered so far.
    public var overruns: Int { stream.overruns }
    /// Frames lost because the consumer fell behind the ring.
    public var droppedFrames: Int { stream.droppedFrames }
    /// Frames queued for the consumer since the start.
    public var capturedFrames: Int { stream.capturedFrames }
    /// True once the capture thread runs at real-time priority.
    public var isRealTime: Bool { stream.isRealTime }
    /// Starts the capture thread (once).
    public func start() { stream.start() }
    /// Stops capturing, waiting up to ``CaptureStream/stopSeconds`` for the thread; idempotent.
    public func stop() { stream.stop() }

    /// Waits up to `timeout` seconds for audio and copies it into `buffer`; returns 0 on timeout and
    /// throws what ended the capture thread.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws(AudioDeviceError) -> Int {
        do { return try stream.read(into: buffer, timeout: timeout) } catch { throw AudioDeviceError(error) }
    }
}

/// A ``PlaybackStream`` behind ``ModemLive/PlaybackDevice``.
public final class ALSAPlaybackDevice: PlaybackDevice {
    /// The ALSA stream behind this device.
    public let stream: PlaybackStream
    /// What the device granted, read once when it opened.
    public let info: AudioDeviceInfo

    /// Wraps an opened stream; its PCM's granted settings become ``info``.
    public init(_ stream: PlaybackStream) {
        self.stream = stream
        info = stream.pcm.info
    }

    /// Samples per frame written: 1 (copied to every device channel) or 2.
    public var channels: Int { stream.channels }
    /// Underruns (and suspends) recovered so far.
    public var underruns: Int { stream.underruns }
    /// Frames of signal (not filler silence) handed to the device.
    public var playedFrames: Int { stream.playedFrames }
    /// Frames of filler silence written while the ring was empty.
    public var silenceFrames: Int { stream.silenceFrames }
    /// Frames written that the playback thread has not taken yet.
    public var pendingFrames: Int { stream.pendingFrames }
    /// Seconds until a sample written now is heard (ring, device and server buffers).
    public var queuedSeconds: Double { stream.queuedSeconds }
    /// True once the playback thread runs at real-time priority.
    public var isRealTime: Bool { stream.isRealTime }
    /// Starts the playback thread (once).
    public func start() { stream.start() }
    /// Ends the burst: without keep-open the device drains once it has played it.
    public func endBurst() { stream.endBurst() }
    /// Stops at once, discarding queued audio; idempotent.
    public func abort() { stream.abort() }

    /// Queues interleaved samples, waiting for room; throws what ended the playback thread.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioDeviceError) {
        do { try stream.write(samples) } catch { throw AudioDeviceError(error) }
    }

    /// Waits until everything queued has played, then stops; throws what ended the playback thread, or
    /// when the device does not play it out in time.
    public func finish() throws(AudioDeviceError) {
        do { try stream.finish() } catch { throw AudioDeviceError(error) }
    }

    /// Throws the error that ended the playback thread, if any (`PlaybackStream.check()`).
    public func check() throws(AudioDeviceError) {
        do { try stream.check() } catch { throw AudioDeviceError(error) }
    }
}
