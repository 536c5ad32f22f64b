import CALSA
import Glibc
import ModemSystem

/// Capture or playback.
public enum ALSADirection: Sendable {
    case capture, playback
    var stream: snd_pcm_stream_t { self == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK }
    var verb: String { self == .capture ? "capture" : "play" }
}

/// What was asked of a device; the opened PCM reports what it granted.
public struct ALSARequest: Sendable {
    /// The device name to open, such as `default`, `pulse` or `hw:1,0`.
    public var device: String
    /// Whether to capture or play.
    public var direction: ALSADirection
    /// The sample rate wanted, in Hz; ``rateIsExact`` says what happens when the device lacks it.
    public var sampleRate: Int
    /// Channels wanted; if the device refuses, the nearest count it allows is used (the
    /// signal goes to, or is read from, the first channel).
    public var channels: Int = 1
    /// Period length in frames, and periods per buffer (the device may round both).
    public var periodFrames: Int
    /// Periods per buffer wanted.
    public var periods: Int = 4
    /// True: exactly ``sampleRate`` or an error (a rate the user chose). False: the
    /// device's own rate when it cannot run at ``sampleRate`` (a card fixed at 48 kHz), and
    /// without alsa-lib's resampler on `plughw:` devices, so the signal is never resampled
    /// on its way.
    public var rateIsExact = true
}

/// One open PCM in blocking, interleaved read/write mode.
///
/// Each method is a thin wrapper over one ALSA call, named for what it does in the style of
/// swift-system's `FileDescriptor` (its doc comment names the C function). A negative return
/// becomes an ``ALSAError`` naming the call and the device, through ``ALSAError/check(_:_:device:reason:_:available:)``
/// alone; what is retried is decided by ``recover(_:)`` under the one policy described at
/// ``ALSARetryPolicy``. Not thread safe: one thread uses a PCM at a time (the stream that
/// owns it).
public final class ALSAPCM {
    /// The device name it was opened as.
    public let device: String
    /// Whether it captures or plays.
    public let direction: ALSADirection
    /// The sample rate granted, in Hz; differs from the request only when the rate was not exact.
    public let sampleRate: Int
    /// Channels granted, which may differ from the count asked for.
    public let channels: Int
    /// The sample format granted.
    public let format: ALSASampleFormat
    /// Period length granted, in frames.
    public let periodFrames: Int
    /// Buffer length granted, in frames.
    public let bufferFrames: Int
    /// The card's own rate when alsa-lib converts it to ``sampleRate`` on the way (a
    /// `plughw:` device asked for a rate its card lacks); nil when alsa-lib converts nothing.
    /// A sound server's converter does not show here (`softmodem loopback` finds it).
    public let convertedFromRate: Int?
    /// The first line of the PCM's description (`snd_pcm_dump`), read when it was opened: an
    /// I/O plugin's own name, such as "ALSA <-> PulseAudio PCM I/O Plugin", whatever the
    /// device is called in the configuration (`snd_pcm_info` gives that name instead:
    /// `default`, `pulse`, ...); a card's "Hardware PCM card ..."; nil when it cannot be had.
    public let descriptionLine: String?
    private let handle: OpaquePointer

    /// What the device granted of an ``ALSARequest``.
    struct Granted: Sendable {
        var channels: Int
        var format: ALSASampleFormat
        var rate: Int
        var nativeRate: Int?
        var period: Int
        var buffer: Int
        var descriptionLine: String?
    }

    /// Opens and configures the device. Calls `snd_pcm_open`, then `snd_pcm_hw_params*` and
    /// `snd_pcm_sw_params*`, on a thread of their own within `limit` (see
    /// ``ALSAOpenLimit``). Throws when the device does not exist, is busy, cannot run at the
    /// requested rate (the error lists the devices that exist), does not answer in time,
    /// or when `limit` is cancelled meanwhile.
    public init(_ request: ALSARequest, limit: ALSAOpenLimit = ALSAOpenLimit()) throws(ALSAError) {
        device = request.device
        direction = request.direction
        let opened = try PendingOpen.run(
            request, limit: limit,
            {
                let handle: OpaquePointer
                do throws(ALSAError) {
                    handle = try ALSAPCM.open(request.device, request.direction)
                } catch {
                    return .failure(error)
                }
                do throws(ALSAError) {
                    return .success(PendingOpen.Opened(handle: handle, granted: try ALSAPCM.configure(handle, request)))
                } catch {
                    _ = CALSA.snd_pcm_close(handle)
                    return .failure(error)
                }
            },
            close: { _ = CALSA.snd_pcm_close($0) })
        handle = opened.handle
        sampleRate = opened.granted.rate
        channels = opened.granted.channels
        format = opened.granted.format
        periodFrames = opened.granted.period
        bufferFrames = opened.granted.buffer
        convertedFromRate = opened.granted.nativeRate
        descriptionLine = opened.granted.descriptionLine
    }

    /// Calls `snd_pcm_close`.
    deinit { _ = CALSA.snd_pcm_close(handle) }

    /// The first line of `pcm`'s description, nil when it cannot be had. Calls
    /// `snd_output_buffer_open` and `snd_pcm_dump`.
    static func descriptionLine(_ pcm: OpaquePointer) -> String? {
        var output: OpaquePointer?
        guard snd_output_buffer_open(&output) == 0, let output else { return nil }
        defer { snd_output_close(output) }
        guard snd_pcm_dump(pcm, output) == 0 else { return nil }
        var text: UnsafeMutablePointer<CChar>?
        let length = snd_output_buffer_string(output, &text)
        guard let text, length > 0 else { return nil }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: length)
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    /// Opens `device` in blocking mode. Calls `snd_pcm_open`, repeated on `-EINTR` only (see
    /// ``ALSARetryPolicy``); a failure lists the devices that exist for `direction`. The
    /// call runs at real-time priority when the process may have it, for the threads a
    /// plugin starts (``DedicatedThread/withRealTimePriority(_:)``).
    static func open(_ device: String, _ direction: ALSADirection) throws(ALSAError) -> OpaquePointer {
        calsa_silence_library_errors()
        var pcm: OpaquePointer?
        let rc = DedicatedThread.withRealTimePriority {
            ALSARetryPolicy.open { CALSA.snd_pcm_open(&pcm, device, direction.stream, 0) }
        }
        guard rc == 0, let pcm else {
            throw ALSAError.opening(
                device: device, direction: direction, code: rc,
                available: ALSADevice.availableNames(capture: direction == .capture))
        }
        return pcm
    }

    /// Reads up to `frames` interleaved frames into `buffer`, blocking until at least one is
    /// there; returns how many were read. Calls `snd_pcm_readi`.
    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(ALSAError) -> Int {
        Int(try check(CALSA.snd_pcm_readi(handle, buffer, snd_pcm_uframes_t(frames)), "snd_pcm_readi"))
    }

    /// Writes up to `frames` interleaved frames from `buffer`, blocking until there is room for
    /// at least one; returns how many were written. Calls `snd_pcm_writei`.
    public func write(_ buffer: UnsafeRawPointer, frames: Int) throws(ALSAError) -> Int {
        Int(try check(CALSA.snd_pcm_writei(handle, buffer, snd_pcm_uframes_t(frames)), "snd_pcm_writei"))
    }

    /// Waits up to `milliseconds` for the device to be ready to read or write; false on
    /// timeout. Calls `snd_pcm_wait`.
    public func wait(milliseconds: Int32) throws(ALSAError) -> Bool {
        try check(CALSA.snd_pcm_wait(handle, milliseconds), "snd_pcm_wait") > 0
    }

    /// Frames ready to read (capture) or room to write (playback). Calls
    /// `snd_pcm_avail_update`.
    public func availableFrames() throws(ALSAError) -> Int {
        Int(try check(CALSA.snd_pcm_avail_update(handle), "snd_pcm_avail_update"))
    }

    /// Frames between the application pointer and what is heard (or recorded) now, including
    /// a sound server's own buffering. Calls `snd_pcm_delay`.
    public func delay() throws(ALSAError) -> Int {
        var frames: snd_pcm_sframes_t = 0
        try check(CALSA.snd_pcm_delay(handle, &frames), "snd_pcm_delay")
        return Int(frames)
    }

    /// True when ``delay()`` follows the source to within a period: not through the
    /// PulseAudio plugin, whose delay comes from PulseAudio's smoothed latency estimate and
    /// drifted 22 ms over 5 s, then jumped back, with nothing lost (measured on
    /// pipewire-pulse, November 2026). Told by the plugin's name, as Firefox's cubeb does,
    /// because `default` reaches that plugin on PulseAudio systems.
    public var delayIsExact: Bool { plugin != "PulseAudio" }

    /// The I/O plugin the device goes through ("PulseAudio", "PipeWire", from its
    /// ``descriptionLine``), or nil when it is not an I/O plugin (a card, `plughw:`).
    public var plugin: String? {
        guard let d = descriptionLine, d.hasPrefix("ALSA <-> "), d.hasSuffix(" PCM I/O Plugin") else { return nil }
        return String(d.dropFirst("ALSA <-> ".count).dropLast(" PCM I/O Plugin".count))
    }

    /// Applies the retry policy (``ALSARetryPolicy``) to `error` from a read, write or wait
    /// on this PCM: returns how it was dealt with when the call can be made again, and
    /// rethrows `error` when it cannot. Calls `snd_pcm_recover` for an xrun or a suspend.
    public func recover(_ error: ALSAError) throws(ALSAError) -> ALSARecovery {
        if ALSARetryPolicy.isInterruption(error.code) { return .interrupted }
        if ALSARetryPolicy.isXrun(error.code) && CALSA.snd_pcm_recover(handle, error.code, 1) == 0 { return .xrun }
        throw error
    }

    /// Starts a stream that is prepared (configured, recovered or drained) and does nothing in
    /// any other state; true if it started it. Calls `snd_pcm_state` and `snd_pcm_start`.
    ///
    /// A prepared capture stream is not ready to read on a sound card (the kernel's poll
    /// waits for `avail_min` frames, and none come until the stream runs) nor on the pipewire
    /// plugin, so waiting before the first read would wait forever: capture is started
    /// explicitly once configured and after every recovery. Playback starts by itself at
    /// its start threshold; a drain starts what is still below it.
    @discardableResult
    public func startIfPrepared() throws(ALSAError) -> Bool {
        guard CALSA.snd_pcm_state(handle) == SND_PCM_STATE_PREPARED else { return false }
        try check(CALSA.snd_pcm_start(handle), "snd_pcm_start")
        return true
    }

    /// Makes the PCM ready to start again after a drain or drop. Calls `snd_pcm_prepare`.
    public func prepare() throws(ALSAError) {
        try check(CALSA.snd_pcm_prepare(handle), "snd_pcm_prepare")
    }

    /// Blocks until every queued frame has played, then stops. Calls `snd_pcm_drain`,
    /// repeated while interrupted (``ALSARetryPolicy``).
    public func drain() throws(ALSAError) {
        try check(ALSARetryPolicy.repeatingInterrupted { CALSA.snd_pcm_drain(handle) }, "snd_pcm_drain")
    }

    /// Stops at once, discarding queued frames. Calls `snd_pcm_drop`.
    public func drop() throws(ALSAError) {
        try check(CALSA.snd_pcm_drop(handle), "snd_pcm_drop")
    }

    /// `code` when not negative, else the error of `function` on this device: the transfer
    /// and state calls above all report through here.
    @inline(__always)
    @discardableResult
    private func check<Code: BinaryInteger>(_ code: Code, _ function: String) throws(ALSAError) -> Code {
        try ALSAError.check(
            code, function, device: device,
            direction == .capture ? "capture stopped" : "playback stopped")
    }
}
