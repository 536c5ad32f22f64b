import ModemAudioIO
import ModemBench
import ModemDSP
import ModemDecoding
import ModemLive
import ModemSystem

/// A failure the command line reports as one line on stderr.
struct CLIError: Error, CustomStringConvertible {
    enum Kind { case usage, runtime }
    let kind: Kind
    let message: String

    static func usage(_ message: String) -> CLIError { CLIError(kind: .usage, message: message) }
    static func runtime(_ message: String) -> CLIError { CLIError(kind: .runtime, message: message) }
    /// A runtime failure whose lines are already on stderr: exit status 1, nothing more.
    static var reported: CLIError { CLIError(kind: .runtime, message: "") }

    var exitCode: Int32 { kind == .usage ? 2 : 1 }

    /// The message alone: swift-argument-parser prints errors thrown from `validate()` with
    /// their description, which would otherwise show the struct's fields.
    var description: String { message }

    init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// Impossible profiles and options are usage errors.
    init(_ error: ModemConfigurationError, context: String? = nil) {
        kind = .usage
        message = context.map { "\($0): \(error)" } ?? error.description
    }

    /// A channel that does not exist, a modem that cannot run at the input's rate.
    init(_ error: DecodeSessionError) {
        kind = .usage
        if case .noSuchChannel(let input, let channels, let requested) = error {
            message =
                "\(input) has \(channels) channel\(channels == 1 ? "" : "s"); --channel \(requested + 1) does not exist"
        } else {
            message = error.description
        }
    }

    /// Problems with files and devices are runtime errors, except parameters that could
    /// never work, which are usage errors.
    init(_ error: AudioIOError) {
        if case .invalidParameters = error { kind = .usage } else { kind = .runtime }
        if case .noAudioHeader = error {
            message = error.description + " (for headerless audio use --raw)"
        } else {
            message = error.description
        }
    }

    /// Files that cannot be opened, read or written, programs that cannot be run.
    init(_ error: SystemError) {
        kind = .runtime
        message = error.description
    }

    /// A measurement that could not be set up or run: impossible settings are usage errors.
    init(_ error: BenchError) {
        switch error {
        case .configuration(let e, let context): self.init(e, context: context)
        case .session(let e): self.init(e)
        case .audio(let e): self.init(e)
        case .system(let e): self.init(e)
        case .decoderSetup: self.init(kind: .runtime, message: error.description)
        }
    }

    /// The one line for an error of any of the libraries' typed errors, for code that throws
    /// several kinds (untyped `do` blocks, `main`); nil for an error of another type.
    static func mapped(_ error: any Error) -> CLIError? {
        switch error {
        case let e as CLIError: e
        case let e as SystemError: CLIError(e)
        case let e as AudioIOError: CLIError(e)
        case let e as BenchError: CLIError(e)
        case let e as LinkRecording.ReadFailure: CLIError(e)
        default: nil
        }
    }
}
