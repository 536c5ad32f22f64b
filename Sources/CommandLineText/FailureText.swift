public import ModemAudioIO
public import ModemBench
public import ModemDSP
public import ModemDecoding
public import ModemFraming
public import ModemLive
public import ModemReport
public import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The one line a command prints for a failure, and whose failure it is.
public struct FailureLine: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whose failure: the user's (settings that could never work: exit status 2) or the
    /// run's (files, devices, streams: exit status 1).
    public enum Kind: Sendable, Equatable {
        case usage, runtime
    }

    /// Usage or runtime: which exit status the line goes with.
    public let kind: Kind
    /// One line, without the program's name.
    public let text: String

    /// A line of `kind` saying `text`.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// The line itself.
    public var description: String { text }
}

/// The libraries' typed failures in words, one line each, for every program that prints
/// them (the command line, an embedder's log).
///
/// Each line names what failed (a file, a device, an option) and, where there is one, what
/// to do about it.
public enum FailureText {
    /// Where to look when a device does not answer: the sound servers behind it.
    public static let soundServerHint =
        "; is the sound server running and responsive? check 'pactl info' or "
        + "'systemctl --user status pipewire pipewire-pulse pulseaudio'"

    /// Impossible profiles and options are the user's; `context` (an option or a file)
    /// goes in front.
    public static func line(_ error: ModemConfigurationError, context: String? = nil) -> FailureLine {
        FailureLine(.usage, context.map { "\($0): \(error)" } ?? error.description)
    }

    /// A channel that does not exist, a modem that cannot run at the input's rate.
    public static func line(_ error: DecodeSessionError) -> FailureLine {
        guard case .noSuchChannel(let input, let channels, let requested) = error else {
            return FailureLine(.usage, error.description)
        }
        return FailureLine(
            .usage,
            "\(input) has \(channels) channel\(channels == 1 ? "" : "s"); --channel \(requested + 1) does not exist")
    }

    /// Files and streams that fail are the run's; parameters that could never work are the
    /// user's.
    public static func line(_ error: AudioIOError) -> FailureLine {
        let kind: FailureLine.Kind = if case .invalidParameters = error { .usage } else { .runtime }
        guard case .noAudioHeader = error else { return FailureLine(kind, error.description) }
        return FailureLine(kind, error.description + " (for headerless audio use --raw)")
    }

    /// An input that held nothing to decode.
    public static func line(_ problem: InputProblem) -> FailureLine { FailureLine(.runtime, problem.description) }

    /// Files that cannot be opened, read or written, programs that cannot be run.
    public static func line(_ error: SystemError) -> FailureLine { FailureLine(.runtime, error.description) }

    /// A measurement that could not be set up or run.
    public static func line(_ error: BenchError) -> FailureLine {
        switch error {
        case .configuration(let e, let context): line(e, context: context)
        case .session(let e): line(e)
        case .audio(let e): line(e)
        case .system(let e): line(e)
        case .decoderSetup: FailureLine(.runtime, error.description)
        }
    }

    /// A sound device that failed; one that did not answer gets the sound servers to check.
    public static func line(_ error: AudioDeviceError) -> FailureLine {
        FailureLine(.runtime, error.description + (error.reason == .noAnswer ? soundServerHint : ""))
    }

    /// A live session's end: settings that cannot work are the user's, devices and streams
    /// the run's.
    public static func line(_ error: LiveError) -> FailureLine {
        switch error {
        case .device(let e): return line(e)
        case .captureStalled(let device, let seconds):
            return FailureLine(.runtime, LiveNoticeText.stall(device, seconds))
        case .transmitter(.modem(let e)): return line(e)
        case .transmitter(.powerAmplitude(let level)):
            return FailureLine(.usage, "--power-amplitude must be between 0 and 1 (full scale), not \(level)")
        case .transmitter(.powerTone(let e)): return FailureLine(.usage, "--power-tone: \(e)")
        case .decoding(let e): return line(e)
        case .recording(let e), .output(let e): return line(e)
        case .stream(let name, let operation, let code):
            let what =
                switch operation {
                case .waiting: "error waiting for"
                case .reading: "error reading"
                case .writing: "cannot write to"
                }
            return FailureLine(.runtime, "\(what) \(name): \(String(cString: strerror(code)))")
        case .fileTransfer(let failure): return line(failure)
        case .fileStore(let e): return FailureLine(.runtime, "cannot write \(e.path): \(e.reason)")
        }
    }

    /// A received stream that was not whole files.
    public static func line(_ failure: FileAssembly.Failure) -> FailureLine {
        switch failure {
        case .headerTooLong: return FailureLine(.runtime, "the stream does not start with a file header")
        case .invalidHeader: return FailureLine(.runtime, "the stream does not start with a valid file header")
        case .mismatch(let h, let received, let crc):
            let sums = "CRC-32 \(String(crc, radix: 16)) instead of \(String(h.crc, radix: 16))"
            return FailureLine(
                .runtime, "\(h.name): got \(received) of \(h.size) bytes, \(sums); kept as \(h.name).part")
        case .incomplete(let h, let received):
            return FailureLine(
                .runtime,
                "\(h.name): incomplete, \(received) of \(h.size) bytes (kept as \(h.name).part); "
                    + "a packet was lost, try send --repeat")
        case .noFile: return FailureLine(.runtime, "no file found in the audio")
        }
    }

    /// The loopback test's path: its devices' failures as any live session's.
    public static func line(_ error: LoopbackPathError) -> FailureLine {
        switch error {
        case .device(let e): line(e)
        case .interrupted: FailureLine(.runtime, "loopback: interrupted")
        case .gapTwice:
            FailureLine(
                .runtime,
                "loopback: the audio streams had a gap (an overrun or underrun on a busy machine) twice, "
                    + "so the timing is lost; run again, with a larger --latency (e.g. 200)")
        case .captureStalled(let device, let seconds): FailureLine(.runtime, LiveNoticeText.stall(device, seconds))
        case .captureStopped(let device): FailureLine(.runtime, "\(device): the capture stopped delivering audio")
        case .playbackStopped(let device): FailureLine(.runtime, "\(device): the playback stopped taking audio")
        }
    }

    /// Files taken back from recordings: each failure as its own kind says it.
    public static func line(_ failure: LinkRecording.ReadFailure) -> FailureLine {
        switch failure {
        case .session(let e): line(e)
        case .audio(let e): line(e)
        case .store(let e): line(e)
        case .unfinished(let e): line(e)
        }
    }

    /// A recording that could not be inspected: each failure as its own kind says it.
    public static func line(_ error: InspectionError) -> FailureLine {
        switch error {
        case .session(let e): line(e)
        case .read(let e): line(e)
        case .problem(let e): line(e)
        }
    }

    /// The line for an error of any of the types above, for code that throws several kinds
    /// (untyped `do` blocks, a program's `main`); nil for an error of another type.
    public static func line(for error: any Error) -> FailureLine? {
        switch error {
        case let e as FailureLine: e
        case let e as SystemError: line(e)
        case let e as AudioIOError: line(e)
        case let e as BenchError: line(e)
        case let e as LiveError: line(e)
        case let e as LinkRecording.ReadFailure: line(e)
        case let e as LoopbackPathError: line(e)
        case let e as ModemConfigurationError: line(e)
        case let e as DecodeSessionError: line(e)
        case let e as InputProblem: line(e)
        case let e as InspectionError: line(e)
        default: nil
        }
    }
}
