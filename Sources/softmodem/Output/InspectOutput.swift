import ModemAudioIO
import ModemSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a finished report: to stdout for `-`, else to a temporary file beside the target
/// that is renamed over it once complete, so a failure never leaves a partial report.
enum InspectOutput {
    /// Fails early, before any long work, when `path` cannot become the report: it is a
    /// directory, or its directory does not exist.
    static func check(_ path: String) throws(CLIError) {
        guard path != "-" else { return }
        if FilePaths.isDirectory(path) { throw .runtime("cannot write \(path): is a directory") }
        let parent = FilePath(path).removingLastComponent().string
        if !parent.isEmpty, !FilePaths.isDirectory(parent) {
            throw .runtime("cannot write \(path): no such directory \(parent)")
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
        if path == "-" {
            var sink = ByteSink()
            do {
                try sink.write(bytes)
                try sink.flush()
            } catch {
                throw CLIError(error)
            }
            return
        }
        if FilePaths.isDirectory(path) { throw .runtime("cannot write \(path): is a directory") }
        let parent = FilePath(path).removingLastComponent().string
        let temporary = FilePaths.join(
            parent.isEmpty ? "." : parent, ".\(FilePaths.baseName(path)).\(getpid()).partial")
        do {
            let file = try OutputFile(path: temporary)
            try file.write(bytes)
            file.close()
            try FilePaths.rename(temporary, to: path)
        } catch {
            unlink(temporary)
            // Name the file asked for, not the temporary one.
            throw CLIError.runtime(error.description.replacing(temporary, with: path))
        }
    }
}
