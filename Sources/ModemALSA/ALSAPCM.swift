import CALSA
import Glibc

/// Capture or playback.
public enum ALSADirection: Sendable {
    case capture, playback
    var stream: snd_pcm_stream_t { self == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK }
    var verb: String { self == .capture ? "capture" : "play" }
}

/// What was asked of a device; the opened PCM reports what it granted.
public struct ALSARequest: Sendable {
    public var device: String
    public var direction: ALSADirection
    public var sampleRate: Int
    /// Channels wanted; if the device refuses, the nearest count it allows is used (the
    /// signal goes to, or is read from, the first channel).
    public var channels: Int
    /// Period length in frames, and periods per buffer (the device may round both).
    public var periodFrames: Int
    public var periods: Int

    public init(device: String, direction: ALSADirection, sampleRate: Int, channels: Int = 1, periodFrames: Int, periods: Int = 4) {
        self.device = device
        self.direction = direction
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodFrames = periodFrames
        self.periods = periods
    }
}

/// One open PCM in blocking, interleaved read/write mode.
///
/// Each ALSA call is a thin method named after the C function; failures become
/// ``ALSAError`` values naming the device. Not thread safe: one thread uses a PCM at a time
/// (the stream that owns it).
public final class ALSAPCM {
    public let device: String
    public let direction: ALSADirection
    public let sampleRate: Int
    public let channels: Int
    public let format: ALSASampleFormat
    public let periodFrames: Int
    public let bufferFrames: Int
    private let handle: OpaquePointer

    /// Opens and configures the device (`snd_pcm_open`, `snd_pcm_hw_params*`,
    /// `snd_pcm_sw_params*`). Throws when the device does not exist, is busy, or cannot run
    /// at the requested rate; the error lists the devices that exist.
    public init(_ request: ALSARequest) throws(ALSAError) {
        device = request.device
        direction = request.direction
        handle = try ALSAPCM.snd_pcm_open(request.device, request.direction)
        do {
            let granted = try ALSAPCM.configure(handle, request)
            sampleRate = request.sampleRate
            channels = granted.channels
            format = granted.format
            periodFrames = granted.period
            bufferFrames = granted.buffer
        } catch {
            _ = CALSA.snd_pcm_close(handle)
            throw error
        }
    }

    deinit { _ = CALSA.snd_pcm_close(handle) }

    static func snd_pcm_open(_ device: String, _ direction: ALSADirection) throws(ALSAError) -> OpaquePointer {
        calsa_silence_library_errors()
        var pcm: OpaquePointer?
        var rc: Int32
        repeat { rc = CALSA.snd_pcm_open(&pcm, device, direction.stream, 0) } while rc == -EINTR
        guard rc == 0, let pcm else {
            throw ALSAError.opening(device: device, direction: direction, code: rc,
                                    available: availableDeviceNames(capture: direction == .capture))
        }
        return pcm
    }

    private static func configure(_ pcm: OpaquePointer, _ request: ALSARequest) throws(ALSAError)
        -> (channels: Int, format: ALSASampleFormat, period: Int, buffer: Int)
    {
        let device = request.device
        func fail(_ function: String, _ rc: Int32, _ detail: String, unsupported: Bool = false) -> ALSAError {
            ALSAError(reason: unsupported ? .unsupported : .failed, device: device, function: function, code: rc, detail: detail,
                      available: unsupported ? availableDeviceNames(capture: request.direction == .capture) : [])
        }
        var hwp: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hwp) == 0, let hw = hwp else { throw fail("snd_pcm_hw_params_malloc", -ENOMEM, "out of memory") }
        defer { snd_pcm_hw_params_free(hw) }
        var rc = snd_pcm_hw_params_any(pcm, hw)
        if rc < 0 { throw fail("snd_pcm_hw_params_any", rc, "cannot read the device's capabilities") }
        rc = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)
        if rc < 0 { throw fail("snd_pcm_hw_params_set_access", rc, "does not support interleaved read/write access", unsupported: true) }

        guard let format = ALSASampleFormat.allCases.first(where: { snd_pcm_hw_params_test_format(pcm, hw, $0.alsa) == 0 }) else {
            throw fail("snd_pcm_hw_params_test_format", -EINVAL,
                       "supports none of the sample formats \(ALSASampleFormat.allCases.map(\.rawValue).joined(separator: ", ")) (try plughw: instead of hw:)",
                       unsupported: true)
        }
        rc = snd_pcm_hw_params_set_format(pcm, hw, format.alsa)
        if rc < 0 { throw fail("snd_pcm_hw_params_set_format", rc, "refused format \(format.rawValue)", unsupported: true) }

        var channels = UInt32(max(1, request.channels))
        if snd_pcm_hw_params_test_channels(pcm, hw, channels) != 0 {
            var lo: UInt32 = 0, hi: UInt32 = 0
            _ = snd_pcm_hw_params_get_channels_min(hw, &lo)
            _ = snd_pcm_hw_params_get_channels_max(hw, &hi)
            channels = min(max(channels, lo), hi)
        }
        rc = snd_pcm_hw_params_set_channels(pcm, hw, channels)
        if rc < 0 { throw fail("snd_pcm_hw_params_set_channels", rc, "refused \(channels) channel(s)", unsupported: true) }

        // Exact rate, no silent resampling: a board's tones are only right at the rate we
        // modulate with, and hw: devices should fail loudly rather than drift.
        let rate = UInt32(clamping: request.sampleRate)
        if snd_pcm_hw_params_test_rate(pcm, hw, rate, 0) != 0 {
            var lo: UInt32 = 0, hi: UInt32 = 0, dir: Int32 = 0
            _ = snd_pcm_hw_params_get_rate_min(hw, &lo, &dir)
            _ = snd_pcm_hw_params_get_rate_max(hw, &hi, &dir)
            let range = lo == hi ? "\(lo) Hz only" : "\(lo)-\(hi) Hz"
            throw fail("snd_pcm_hw_params_set_rate", -EINVAL,
                       "cannot \(request.direction.verb) at \(request.sampleRate) Hz: the device supports \(range)", unsupported: true)
        }
        rc = snd_pcm_hw_params_set_rate(pcm, hw, rate, 0)
        if rc < 0 { throw fail("snd_pcm_hw_params_set_rate", rc, "refused \(rate) Hz", unsupported: true) }

        var period = snd_pcm_uframes_t(max(16, request.periodFrames))
        var dir: Int32 = 0
        rc = snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir)
        if rc < 0 { throw fail("snd_pcm_hw_params_set_period_size_near", rc, "refused a period of \(request.periodFrames) frames", unsupported: true) }
        var buffer = period * snd_pcm_uframes_t(max(2, request.periods))
        rc = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer)
        if rc < 0 { throw fail("snd_pcm_hw_params_set_buffer_size_near", rc, "refused a buffer of \(buffer) frames", unsupported: true) }
        rc = snd_pcm_hw_params(pcm, hw)
        if rc < 0 { throw fail("snd_pcm_hw_params", rc, "refused \(request.sampleRate) Hz, \(channels) channel(s), \(format.rawValue)", unsupported: true) }
        _ = snd_pcm_hw_params_get_period_size(hw, &period, &dir)
        _ = snd_pcm_hw_params_get_buffer_size(hw, &buffer)

        var swp: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&swp) == 0, let sw = swp else { throw fail("snd_pcm_sw_params_malloc", -ENOMEM, "out of memory") }
        defer { snd_pcm_sw_params_free(sw) }
        rc = snd_pcm_sw_params_current(pcm, sw)
        if rc < 0 { throw fail("snd_pcm_sw_params_current", rc, "cannot read software parameters") }
        // Playback starts once two periods are queued: early enough for low latency, late
        // enough that the first period does not underrun at once.
        let start = request.direction == .playback ? min(buffer, 2 * period) : 1
        rc = snd_pcm_sw_params_set_start_threshold(pcm, sw, start)
        if rc < 0 { throw fail("snd_pcm_sw_params_set_start_threshold", rc, "refused a start threshold") }
        rc = snd_pcm_sw_params_set_avail_min(pcm, sw, period)
        if rc < 0 { throw fail("snd_pcm_sw_params_set_avail_min", rc, "refused avail_min") }
        rc = snd_pcm_sw_params(pcm, sw)
        if rc < 0 { throw fail("snd_pcm_sw_params", rc, "refused software parameters") }
        return (Int(channels), format, Int(period), Int(buffer))
    }

    /// `snd_pcm_readi`: frames read (> 0), or the negative errno.
    public func snd_pcm_readi(_ buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        Int(CALSA.snd_pcm_readi(handle, buffer, snd_pcm_uframes_t(frames)))
    }

    /// `snd_pcm_writei`: frames written (> 0), or the negative errno.
    public func snd_pcm_writei(_ buffer: UnsafeRawPointer, frames: Int) -> Int {
        Int(CALSA.snd_pcm_writei(handle, buffer, snd_pcm_uframes_t(frames)))
    }

    /// `snd_pcm_wait`: 1 when the device is ready, 0 on timeout, or the negative errno.
    public func snd_pcm_wait(milliseconds: Int32) -> Int32 { CALSA.snd_pcm_wait(handle, milliseconds) }

    /// `snd_pcm_avail_update`: frames ready to read (capture) or room to write (playback),
    /// or the negative errno.
    public func snd_pcm_avail_update() -> Int { Int(CALSA.snd_pcm_avail_update(handle)) }

    /// `snd_pcm_delay`: frames between the application pointer and what is heard (or
    /// recorded) now, including a sound server's own buffering; nil on error.
    public func snd_pcm_delay() -> Int? {
        var frames: snd_pcm_sframes_t = 0
        return CALSA.snd_pcm_delay(handle, &frames) == 0 ? Int(frames) : nil
    }

    /// `snd_pcm_recover` after an xrun (-EPIPE), suspend (-ESTRPIPE) or -EINTR; 0 on success.
    public func snd_pcm_recover(_ code: Int) -> Int32 {
        CALSA.snd_pcm_recover(handle, Int32(code), 1)
    }

    /// `snd_pcm_prepare`: ready to start again after a drain or drop.
    @discardableResult public func snd_pcm_prepare() -> Int32 { CALSA.snd_pcm_prepare(handle) }

    /// `snd_pcm_drain`: blocks until every queued frame has played.
    @discardableResult public func snd_pcm_drain() -> Int32 {
        var rc: Int32
        repeat { rc = CALSA.snd_pcm_drain(handle) } while rc == -EINTR || rc == -EAGAIN
        return rc
    }

    /// `snd_pcm_drop`: stops at once, discarding queued frames.
    @discardableResult public func snd_pcm_drop() -> Int32 { CALSA.snd_pcm_drop(handle) }

    /// An error for a failed read or write, naming the device.
    public func ioError(_ function: String, _ code: Int) -> ALSAError {
        ALSAError(reason: .failed, device: device, function: function, code: Int32(code),
                  detail: direction == .capture ? "capture stopped" : "playback stopped")
    }
}
