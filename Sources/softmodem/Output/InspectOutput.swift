import ModemAudioIO
import ModemSystem

/// Writes a finished report: to stdout for `-`, else whole or not at all (``WholeFile``),
/// so a failure never leaves a partial report.
enum InspectOutput {
    /// Fails early, before any long work, when `path` cannot become the report: it is a
    /// directory, or its directory does not exist.
    static func check(_ path: String) throws(CLIError) {
        guard path != "-" else { return }
        do { try WholeFile.checkTarget(path) } catch { throw CLIError(error) }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
        do {
            if path == "-" {
                var sink = ByteSink()
                try sink.write(bytes)
                try sink.flush()
            } else {
                try WholeFile.write(bytes, to: path)
            }
        } catch {
            throw CLIError.mapped(error) ?? .runtime("\(error)")
        }
    }
}
