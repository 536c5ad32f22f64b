import CALSA
import Glibc

/// Why an ALSA device could not be used. Each error names the device, says what went wrong
/// in plain words, names the ALSA function and its error text, and, when the device itself
/// is the problem, lists the devices that do exist, so it prints as one useful line.
public struct ALSAError: Error, Sendable, CustomStringConvertible {
    /// The broad cause, for callers that react differently (tests, retry policy).
    public enum Reason: Sendable, Equatable {
        /// No device by that name (unknown PCM, no such card).
        case noSuchDevice
        /// The device exists but another program holds it.
        case busy
        /// The device cannot do what was asked (rate, format, channels, period).
        case unsupported
        /// The device did not answer in time (a stopped or hung sound server).
        case noAnswer
        /// A stop was requested (SIGINT, SIGTERM) while waiting for the device.
        case interrupted
        /// The device went away while open (unplugged, or its sound server ended).
        case disconnected
        /// Any other failure of an ALSA call.
        case failed
    }

    /// The broad cause, which tests and the retry policy react to.
    public let reason: Reason
    /// The device name as given (`default`, `hw:1,0`, `pulse`...).
    public let device: String
    /// The ALSA function that failed, e.g. `snd_pcm_open`.
    public let function: String
    /// The negative errno ALSA returned (0 when the failure is not an errno).
    public let code: Int32
    /// What went wrong, in words, without the device name.
    public let detail: String
    /// Device names `--device` accepts, listed when the device itself is the problem.
    public var available: [String] = []

    /// The error for a failed `snd_pcm_open` returning `code` (a negative errno): busy,
    /// missing or other, with the devices that exist for that direction.
    public static func opening(device: String, direction: ALSADirection, code: Int32, available: [String]) -> ALSAError
    {
        let kind = direction == .capture ? "capture" : "playback"
        switch -code {
        case EBUSY, EAGAIN:
            return ALSAError(
                reason: .busy, device: device, function: "snd_pcm_open", code: code,
                detail:
                    "device is busy: another program is using it (close it, or use a shared device such as default or pulse)",
                available: available)
        case ENOENT, ENODEV, ENXIO:
            return ALSAError(
                reason: .noSuchDevice, device: device, function: "snd_pcm_open", code: code,
                detail: "no such \(kind) device", available: available)
        default:
            return ALSAError(
                reason: .failed, device: device, function: "snd_pcm_open", code: code,
                detail: "cannot open for \(kind)", available: available)
        }
    }

    /// The error for an open that `limit` ended: no answer within its time, or a stop
    /// request meanwhile. The call is still blocked in `snd_pcm_open` or the parameter
    /// calls, so there is no ALSA text; where to look is the caller's to say
    /// (``Reason/noAnswer``).
    public static func unanswered(device: String, direction: ALSADirection, seconds: Double, interrupted: Bool)
        -> ALSAError
    {
        let kind = direction == .capture ? "capture" : "playback"
        if interrupted {
            return ALSAError(
                reason: .interrupted, device: device, function: "snd_pcm_open", code: 0,
                detail: "stopped while waiting for the device to open for \(kind)")
        }
        let whole = seconds.rounded() == seconds ? "\(Int(seconds))" : "\(seconds)"
        return ALSAError(
            reason: .noAnswer, device: device, function: "snd_pcm_open", code: 0,
            detail: "no answer within \(whole) s while opening for \(kind)")
    }

    /// The one conversion of an ALSA return value into an error: `code` itself when it is not
    /// negative, else an error naming `device`, the ALSA `function` that returned it and, in
    /// words, what failed.
    ///
    /// `detail` and `available` are only evaluated on failure, and the error holds only the
    /// strings it is given, so checking a transfer on the audio thread allocates nothing.
    /// Devices are listed (`available`) only when the device itself is the problem.
    @inline(__always)
    @discardableResult
    public static func check<Code: BinaryInteger>(
        _ code: Code, _ function: String, device: String, reason: Reason = .failed,
        _ detail: @autoclosure () -> String, available: @autoclosure () -> [String] = []
    ) throws(ALSAError) -> Code {
        guard code < 0 else { return code }
        let value = Int32(truncatingIfNeeded: code)
        if value == -ENODEV {
            // The kernel's answer on every call once a card is unplugged (and the plugins'
            // when their server goes away): the same words whichever call met it first.
            throw ALSAError(
                reason: .disconnected, device: device, function: function, code: value,
                detail: "the device went away (unplugged, or its sound server stopped)")
        }
        throw ALSAError(
            reason: reason, device: device, function: function, code: value, detail: detail(),
            available: available())
    }

    /// ALSA's text for a negative errno (`snd_strerror`).
    public static func text(_ code: Int32) -> String {
        guard let p = snd_strerror(code) else { return "error \(code)" }
        return String(cString: p)
    }

    /// One line: the device and the detail, then the ALSA function (with its error text when
    /// there is an errno), then the available devices when there are any.
    public var description: String {
        var line = "\(device): \(detail)"
        if code != 0 { line += " (\(function): \(ALSAError.text(code)))" } else { line += " (\(function))" }
        if !available.isEmpty { line += "; available devices: \(available.joined(separator: ", "))" }
        return line
    }
}
