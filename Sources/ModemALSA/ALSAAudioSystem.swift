public import ModemLive

/// ALSA as a ``ModemLive/AudioSystem``: opens ``CaptureStream``s and ``PlaybackStream``s
/// (each on a dedicated thread with a lock-free ring) behind the device protocols.
public struct ALSAAudioSystem: AudioSystem {
    /// Bounds each open and says what ends the wait early.
    public var openLimit: ALSAOpenLimit

    public init(openLimit: ALSAOpenLimit = ALSAOpenLimit()) {
        self.openLimit = openLimit
    }

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
    public let stream: CaptureStream
    public let info: AudioDeviceInfo

    public init(_ stream: CaptureStream) {
        self.stream = stream
        info = stream.pcm.info
    }

    public var latencyFrames: Int { stream.latencyFrames }
    public var overruns: Int { stream.overruns }
    public var droppedFrames: Int { stream.droppedFrames }
    public var capturedFrames: Int { stream.capturedFrames }
    public var isRealTime: Bool { stream.isRealTime }
    public func start() { stream.start() }
    public func stop() { stream.stop() }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws(AudioDeviceError) -> Int {
        do { return try stream.read(into: buffer, timeout: timeout) } catch { throw AudioDeviceError(error) }
    }
}

/// A ``PlaybackStream`` behind ``ModemLive/PlaybackDevice``.
public final class ALSAPlaybackDevice: PlaybackDevice {
    public let stream: PlaybackStream
    public let info: AudioDeviceInfo

    public init(_ stream: PlaybackStream) {
        self.stream = stream
        info = stream.pcm.info
    }

    public var channels: Int { stream.channels }
    public var underruns: Int { stream.underruns }
    public var playedFrames: Int { stream.playedFrames }
    public var silenceFrames: Int { stream.silenceFrames }
    public var pendingFrames: Int { stream.pendingFrames }
    public var queuedSeconds: Double { stream.queuedSeconds }
    public var isRealTime: Bool { stream.isRealTime }
    public func start() { stream.start() }
    public func endBurst() { stream.endBurst() }
    public func abort() { stream.abort() }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioDeviceError) {
        do { try stream.write(samples) } catch { throw AudioDeviceError(error) }
    }

    public func finish() throws(AudioDeviceError) {
        do { try stream.finish() } catch { throw AudioDeviceError(error) }
    }
}
