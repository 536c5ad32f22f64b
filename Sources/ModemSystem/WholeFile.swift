import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A file written whole or not at all: the bytes go to a temporary file beside the target,
/// which is renamed over it once complete, so a failure (a full disk, a signal) never leaves
/// part of a file where a whole one was asked for, nor spoils a file already there.
public enum WholeFile {
    /// Fails when `path` cannot become a file: it is a directory
    /// (``SystemError/Reason/isDirectory``), or its directory does not exist
    /// (``SystemError/Reason/noSuchDirectory(_:)``). For checking before long work; the
    /// write itself can still fail (permissions, space).
    public static func checkTarget(_ path: String) throws(SystemError) {
        if FilePaths.isDirectory(path) { throw SystemError(.write, path, .isDirectory) }
        let parent = FilePath(path).removingLastComponent().string
        if !parent.isEmpty, !FilePaths.isDirectory(parent) {
            throw SystemError(.write, path, .noSuchDirectory(parent))
        }
    }

    /// Writes `bytes` as the file `path`, replacing any file there in one step (`rename(2)`).
    ///
    /// The temporary file is `.NAME.PID.partial` in the target's directory (the same file
    /// system, so the rename is atomic) and is removed when anything fails. Errors name
    /// `path`, never the temporary file.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        try checkTarget(path)
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
            throw SystemError(.write, path, error.reason)
        }
    }
}
