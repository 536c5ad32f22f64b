import CommandLineText
import ModemALSA

extension CLIError {
    /// Device problems are runtime errors; the message names the device and, when the
    /// device is the problem, lists the ones that exist.
    init(_ error: ALSAError) {
        self.init(
            kind: .runtime, message: error.description + (error.reason == .noAnswer ? FailureText.soundServerHint : ""))
    }
}
