/// What a sound device granted: the facts a caller reports or sizes buffers by.
public struct AudioDeviceInfo: Sendable, Equatable {
    /// The device name as given (`default`, `hw:1,0`, `pulse`, or a test device's name).
    public var name: String
    /// Frames per second the stream runs at (what the device granted, not what was asked).
    public var sampleRate: Int
    /// The card's own rate when the backend converts to ``sampleRate`` on the way, else nil.
    public var convertedFromRate: Int?
    /// Channels per frame the device opened with; a capture delivers one of them.
    public var channels: Int
    /// The sample format on the wire, e.g. `S16_LE`.
    public var format: String
    /// Frames per period: how much audio the device moves at a time.
    public var periodFrames: Int
    /// Frames the device's own buffer holds, as granted (several periods).
    public var bufferFrames: Int
    /// The backend plugin in between (e.g. `PulseAudio`), when the device names one.
    public var plugin: String?

    /// Describes a device; nil `convertedFromRate` or `plugin` means no conversion or no plugin.
    public init(
        name: String, sampleRate: Int, convertedFromRate: Int? = nil, channels: Int, format: String,
        periodFrames: Int, bufferFrames: Int, plugin: String? = nil
    ) {
        self.name = name
        self.sampleRate = sampleRate
        self.convertedFromRate = convertedFromRate
        self.channels = channels
        self.format = format
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.plugin = plugin
    }
}

/// Why a sound device could not be opened or used, whatever the backend.
///
/// ``description`` is the backend's own account (it names the device and the call that
/// failed); ``reason`` is what callers branch on: a ``Reason/disconnected`` device may come
/// back and is worth reopening, the others are not.
public struct AudioDeviceError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, whatever the backend; only ``disconnected`` is worth reopening.
    public enum Reason: Sendable, Equatable {
        /// No device by that name.
        case noSuchDevice
        /// Another program holds the device.
        case busy
        /// The device cannot do what was asked (rate, format, channels, period).
        case unsupported
        /// The device did not answer in time (a stopped or hung sound server).
        case noAnswer
        /// A stop was requested while waiting for the device.
        case interrupted
        /// The device went away while open (unplugged, ENODEV, or its sound server ended).
        case disconnected
        /// Any other failure.
        case failed
    }

    /// What callers branch on.
    public let reason: Reason
    /// The device name as given.
    public let device: String
    /// The backend's own one-line account, naming the device and the call that failed.
    public let description: String

    /// An error of `reason` for `device`, worded by the backend as `description`.
    public init(_ reason: Reason, device: String, description: String) {
        self.reason = reason
        self.device = device
        self.description = description
    }
}

/// A capture stream: a thread of its own records into a ring buffer that ``read(into:timeout:)``
/// drains. Counters are safe to read from the consumer thread at any time.
public protocol CaptureDevice: AnyObject {
    /// What the device granted (rate, channels, period), fixed while it is open.
    var info: AudioDeviceInfo { get }
    /// Frames the device may hold before they can be read (its buffer, bounded by the
    /// periods asked).
    var latencyFrames: Int { get }
    /// Overruns (audio lost by the device) recovered so far.
    var overruns: Int { get }
    /// Frames dropped because the ring was full (a slow consumer).
    var droppedFrames: Int { get }
    /// Frames recorded since ``start()``, read or not: a stalled device stops counting.
    var capturedFrames: Int { get }
    /// True when the capture thread runs at real-time priority.
    var isRealTime: Bool { get }
    /// Starts recording: frames are counted and queued for reading from then on.
    func start()
    /// Stops recording; calling it again does nothing.
    func stop()
    /// Waits up to `timeout` seconds for audio and copies what is there into `buffer`;
    /// returns the frames copied (0 after the timeout).
    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws(AudioDeviceError) -> Int
}

/// A playback stream: ``write(_:)`` queues interleaved samples into a ring that a thread of
/// its own plays; gaps are filled with silence.
public protocol PlaybackDevice: AnyObject {
    /// What the device granted (rate, channels, period), fixed while it is open.
    var info: AudioDeviceInfo { get }
    /// Interleaved channels each frame written carries (1, or 2 for HiJack's data and power).
    var channels: Int { get }
    /// Underruns (the device starved of audio) recovered so far.
    var underruns: Int { get }
    /// Frames the device has taken from the ring since ``start()``.
    var playedFrames: Int { get }
    /// Frames of filler silence played while the ring was empty.
    var silenceFrames: Int { get }
    /// Frames written and not yet taken by the device.
    var pendingFrames: Int { get }
    /// Seconds until a frame written now is heard (ring, device and server buffers).
    var queuedSeconds: Double { get }
    /// True when the playback thread runs at real-time priority.
    var isRealTime: Bool { get }
    /// Starts the playback thread: what is written plays from then on, gaps filled with silence.
    func start()
    /// Queues interleaved samples, waiting while the ring is full.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioDeviceError)
    /// Throws the error that stopped the device, if one did, without writing: a device that
    /// went away while idle is noticed before the next burst.
    func check() throws(AudioDeviceError)
    /// Marks the end of a burst: a device not kept open may stop once it has played it.
    func endBurst()
    /// Plays everything queued, then stops.
    func finish() throws(AudioDeviceError)
    /// Stops at once, dropping what is queued.
    func abort()
}

/// What a capture is asked for.
public struct CaptureRequest: Sendable, Equatable {
    /// The device name (`default`, `hw:1,0`, `pulse`, or a test device's name).
    public var device: String
    /// Frames per second asked for (see ``rateIsExact`` for what the device may grant instead).
    public var sampleRate: Int
    /// False lets a device that cannot run at ``sampleRate`` run at its own rate.
    public var rateIsExact: Bool
    /// Frames per period: a capture's latency, since each period is read as soon as it is ready.
    public var periodFrames: Int
    /// Periods the device buffer holds; a backend may grant more (ALSA does on a card).
    public var periods: Int
    /// 0-based channel to deliver (channel 0 lets a sound server down-mix to mono).
    public var channel: Int = 0
    /// Seconds of audio the ring holds for a slow consumer.
    public var ringSeconds: Double = 2

    /// A request delivering channel 0 with a two-second ring; ``channel`` and ``ringSeconds`` are set after.
    public init(device: String, sampleRate: Int, rateIsExact: Bool, periodFrames: Int, periods: Int) {
        self.device = device
        self.sampleRate = sampleRate
        self.rateIsExact = rateIsExact
        self.periodFrames = periodFrames
        self.periods = periods
    }
}

/// What a playback is asked for.
public struct PlaybackRequest: Sendable, Equatable {
    /// The device name (`default`, `hw:1,0`, `pulse`, or a test device's name).
    public var device: String
    /// Frames per second asked for (see ``rateIsExact`` for what the device may grant instead).
    public var sampleRate: Int
    /// False lets a device that cannot run at ``sampleRate`` run at its own rate.
    public var rateIsExact: Bool
    /// Frames per period: how much audio the device takes at a time.
    public var periodFrames: Int
    /// Periods the device buffer holds (the device may round it).
    public var periods: Int
    /// Interleaved channels (1 or 2).
    public var channels: Int = 1
    /// Keeps the device running between bursts (silence in the gaps) instead of stopping it.
    public var keepOpen: Bool = false
    /// Seconds of silence before the first sample each time the device starts.
    public var leadIn: Double = 0.1
    /// Seconds of audio the ring holds.
    public var ringSeconds: Double = 1

    /// A mono request that stops the device between bursts, with a 0.1 s lead-in and a one-second
    /// ring; the other properties are set after.
    public init(device: String, sampleRate: Int, rateIsExact: Bool, periodFrames: Int, periods: Int) {
        self.device = device
        self.sampleRate = sampleRate
        self.rateIsExact = rateIsExact
        self.periodFrames = periodFrames
        self.periods = periods
    }
}

/// Opens devices by name: ALSA is one implementation (`ALSAAudioSystem` in ModemALSA), the
/// in-memory ``MemoryAudioSystem`` another.
public protocol AudioSystem: Sendable {
    /// Opens a capture as `request` asks; throws when the device is missing, busy or cannot do it.
    func openCapture(_ request: CaptureRequest) throws(AudioDeviceError) -> any CaptureDevice
    /// Opens a playback as `request` asks; throws when the device is missing, busy or cannot do it.
    func openPlayback(_ request: PlaybackRequest) throws(AudioDeviceError) -> any PlaybackDevice
}
