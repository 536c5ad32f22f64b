import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Paths and the file system's questions about them, through swift-system (`FilePath`,
/// `Stat`) and POSIX; no Foundation, which keeps binaries small and start-up short.
public enum FilePaths {
    /// `directory/name`.
    public static func join(_ directory: String, _ name: String) -> String {
        FilePath(directory).appending(name).string
    }

    /// The last component of `path` (trailing slashes ignored): what `basename(1)` prints.
    /// A path with no components (`/`, empty) is returned as it is.
    public static func baseName(_ path: String) -> String {
        FilePath(path).lastComponent?.string ?? path
    }

    /// The directory for temporary files: `$TMPDIR`, else `/tmp`.
    public static func temporaryDirectory() -> String {
        guard let v = getenv("TMPDIR"), v.pointee != 0 else { return "/tmp" }
        return String(cString: v)
    }

    /// The first executable regular file named `program` in `$PATH` (`access(2)`), like
    /// `which(1)`; nil when there is none. An unset `PATH` searches `/usr/bin:/bin`.
    public static func findExecutable(_ program: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = join(String(directory), program)
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// True when `path` is executable by this process and not a directory (`access(2)`,
    /// `stat(2)`).
    public static func isExecutableFile(_ path: String) -> Bool {
        access(path, X_OK) == 0 && !isDirectory(path)
    }

    /// Renames `from` to `to`, replacing `to` atomically if it exists (`rename(2)`).
    public static func rename(_ from: String, to: String) throws(SystemError) {
        guard Glibc.rename(from, to) == 0 else { throw .current(.rename(to: to), from) }
    }

    /// True when `path` names a directory (`stat(2)`); false when it does not exist.
    public static func isDirectory(_ path: String) -> Bool {
        (try? Stat(FilePath(path)))?.type == .directory
    }

    /// This program's binary, through `/proc/self/exe` (`readlink(2)`): argv[0] may be a bare
    /// name found on `PATH`.
    public static func ownExecutable() throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw .current(.findOwnBinary, "") }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `errno` as this thread last set it.
func currentErrno() -> Int32 { errno }
