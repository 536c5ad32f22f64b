#if canImport(Glibc)
    import Glibc
#endif

/// One file in memory (tmpfs), rewritten with each fuzz input, so the inputs reach the
/// readers through a path as `decode`'s do (libsndfile opens a descriptor and seeks).
public enum ScratchFile {
    nonisolated(unsafe) private static var cached: String?

    /// The path, holding exactly `bytes`.
    public static func write(_ bytes: UnsafeRawBufferPointer) -> String {
        let path =
            cached
            ?? {
                let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
                let p = "\(dir)/softmodem-fuzz-\(getpid())"
                cached = p
                atexit { if let p = ScratchFile.cached { unlink(p) } }
                return p
            }()
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot create \(path)")
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            precondition(n > 0, "cannot write \(path)")
            done += n
        }
        close(fd)
        return path
    }
}
