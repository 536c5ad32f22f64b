import CommandLineText
import ModemAudioIO
import ModemBench
import ModemDSP
import ModemDecoding
import ModemFraming
import ModemLive
import ModemReport
import ModemSystem

/// A failure the command line reports as one line on stderr; the libraries' failures get
/// their words and kind from ``FailureText``.
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

    init(_ line: FailureLine) { self.init(kind: line.kind == .usage ? .usage : .runtime, message: line.text) }

    init(_ error: ModemConfigurationError, context: String? = nil) {
        self.init(FailureText.line(error, context: context))
    }
    init(_ error: DecodeSessionError) { self.init(FailureText.line(error)) }
    init(_ problem: InputProblem) { self.init(FailureText.line(problem)) }
    init(_ error: AudioIOError) { self.init(FailureText.line(error)) }
    init(_ error: SystemError) { self.init(FailureText.line(error)) }
    init(_ error: BenchError) { self.init(FailureText.line(error)) }
    init(_ error: LiveError) { self.init(FailureText.line(error)) }
    init(_ failure: FileAssembly.Failure) { self.init(FailureText.line(failure)) }
    init(_ error: LoopbackPathError) { self.init(FailureText.line(error)) }
    init(_ failure: LinkRecording.ReadFailure) { self.init(FailureText.line(failure)) }
    init(_ error: InspectionError) { self.init(FailureText.line(error)) }

    /// The one line for an error of any of the libraries' typed errors, for code that throws
    /// several kinds (untyped `do` blocks, `main`); nil for an error of another type.
    static func mapped(_ error: any Error) -> CLIError? {
        if let e = error as? CLIError { return e }
        return FailureText.line(for: error).map(CLIError.init)
    }
}
