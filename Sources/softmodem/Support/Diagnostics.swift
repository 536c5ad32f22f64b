import ModemAudioIO
import ModemDecoding
import ModemSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Everything for humans goes to stderr; stdout carries data only.
enum Diagnostics {
    static func error(_ message: String) { write("softmodem: \(message)\n") }
    static func warning(_ message: String) { write("softmodem: warning: \(message)\n") }
    static func info(_ message: String) { write(message + "\n") }

    static func write(_ text: String) {
        // Nothing to report a failure to: stderr is where failures go.
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { b in
            Result { () throws(Errno) in try FileDescriptor.standardError.writeAllRetrying(b) }
        }
    }

    /// The code that returns a terminal's cursor to the start of its line and erases it.
    static let lineReset = "\r\u{1B}[K"

    /// Rewrites stderr's current line with `text` (a progress line, a meter); for a
    /// terminal only, which the caller checks.
    static func rewriteLine(_ text: String) { write(lineReset + text) }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }
    static var stdoutIsTerminal: Bool { isatty(1) != 0 }

    static func number(_ x: Double, _ decimals: Int = 1) -> String { fixed(x, decimals) }
}
