public import ModemDSP

/// Where a decode session's `-v` and `-vv` text goes: this library never prints, the
/// command line does.
///
/// Called once per burst, once per character only when ``trace`` is on, and once per
/// note (a channel chosen, a retune); never per sample.
public protocol DecodeReporting: Sendable {
    /// `-v`: burst lines and notes are wanted.
    var verbose: Bool { get }
    /// `-vv`: one line per character is wanted.
    var trace: Bool { get }
    /// One character (only called when ``trace`` is on).
    func trace(_ event: ModemEvent, rate: Double)
    /// One burst ended, with what the observers measured of it (in the observers' order).
    func burst(_ burst: BurstTracker.Summary, rate: Double, observations: [BurstObservation])
    /// Something to tell with `-v` (only called when ``verbose`` is on).
    func note(_ note: DecodeNote)
}

/// Reports nothing: for benchmarks, fuzzing and any caller that only wants the events.
public struct SilentReporter: DecodeReporting {
    /// A reporter that drops everything.
    public init() {}
    /// Always false: no burst lines or notes are wanted.
    public var verbose: Bool { false }
    /// Always false: no per-character lines are wanted.
    public var trace: Bool { false }
    /// Drops the character.
    public func trace(_ event: ModemEvent, rate: Double) {}
    /// Drops the burst summary.
    public func burst(_ burst: BurstTracker.Summary, rate: Double, observations: [BurstObservation]) {}
    /// Drops the note.
    public func note(_ note: DecodeNote) {}
}

/// Why a decode session could not start; both are usage errors (nothing could make them
/// work but other options).
public enum DecodeSessionError: Error, Equatable, CustomStringConvertible {
    /// The channel asked for is not in the input (`requested` is 0-based).
    case noSuchChannel(input: String, channels: Int, requested: Int)
    /// The modem cannot run at the input's sample rate (e.g. tones above Nyquist).
    case configuration(input: String, ModemConfigurationError)

    /// The message for the user, naming the input (channels are counted from 1 here).
    public var description: String {
        switch self {
        case .noSuchChannel(let input, let channels, let requested):
            "\(input) has \(channels) channel\(channels == 1 ? "" : "s"); channel \(requested + 1) does not exist"
        case .configuration(let input, let error):
            "\(input): \(error)"
        }
    }
}
