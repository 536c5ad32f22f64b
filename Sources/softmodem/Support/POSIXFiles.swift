import ModemAudioIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

// File access for the commands that move files (send, receive, bench), through
// swift-system (FileDescriptor, FilePath, Errno) and ModemAudioIO's retry policy on top of
// it (EINTR retried, EAGAIN waited for); no Foundation is linked at all (see CFormat.swift),
// which keeps the binary small and the start-up short. Any other failure is a one-line
// CLIError naming the operation, the file and the system's reason.

/// The system's text for `errno`.
func systemError() -> String { Errno(rawValue: errno).description }

/// `directory/name`, for a directory given on the command line.
func joinPath(_ directory: String, _ name: String) -> String {
    FilePath(directory).appending(name).string
}

/// The last component of `path` (trailing slashes ignored): what `basename(1)` prints.
func baseName(_ path: String) -> String {
    FilePath(path).lastComponent?.string ?? path
}

/// The directory for temporary files: `$TMPDIR`, else `/tmp`.
func temporaryDirectory() -> String {
    guard let v = getenv("TMPDIR"), v.pointee != 0 else { return "/tmp" }
    return String(cString: v)
}

/// The first executable regular file named `program` in `$PATH` (`access(2)`), like
/// `which(1)`.
func findExecutable(_ program: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
        let candidate = joinPath(String(directory), program)
        if access(candidate, X_OK) == 0 && !isDirectory(candidate) { return candidate }
    }
    return nil
}

/// Renames `from` to `to`, replacing `to` atomically if it exists (`rename(2)`).
func renameFile(_ from: String, to: String) throws(CLIError) {
    guard rename(from, to) == 0 else { throw CLIError.runtime("cannot rename \(from) to \(to): \(systemError())") }
}

/// True when `path` names a directory (`stat(2)`).
func isDirectory(_ path: String) -> Bool {
    (try? Stat(FilePath(path)))?.type == .directory
}

/// A file opened for reading in chunks; closed when released.
final class InputFile {
    let path: String
    private let fd: FileDescriptor

    init(path: String) throws(CLIError) {
        self.path = path
        do {
            fd = try FileDescriptor.open(path)
        } catch {
            throw CLIError.runtime("cannot open \(path): \(error)")
        }
        if fd.isDirectory {  // fstat(2): the file opened, not the path again
            try? fd.close()
            throw CLIError.runtime("cannot open \(path): is a directory")
        }
    }

    deinit { try? fd.close() }

    /// Up to `count` bytes; empty at the end of the file.
    func read(upTo count: Int) throws(CLIError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        do {
            let n = try chunk.withUnsafeMutableBytes { b in Result { () throws(Errno) in try fd.readRetrying(into: b) }
            }.get()
            chunk.removeLast(count - n)
            return chunk
        } catch {
            throw CLIError.runtime("cannot read \(path): \(error)")
        }
    }

    /// Everything from the current position to the end of the file.
    func readAll() throws(CLIError) -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = try read(upTo: 1 << 16)
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// Back to the first byte (`lseek(2)`).
    func rewind() throws(CLIError) {
        do {
            _ = try fd.seek(offset: 0, from: .start)
        } catch {
            throw CLIError.runtime("cannot rewind \(path): \(error)")
        }
    }
}

/// A file created (or emptied) for writing; closed by ``close()`` or when released.
final class OutputFile {
    let path: String
    private var fd: FileDescriptor?

    init(path: String) throws(CLIError) {
        self.path = path
        do {
            fd = try FileDescriptor.open(path, forWriting: true)
        } catch {
            throw CLIError.runtime("cannot write \(path): \(error)")
        }
    }

    deinit { close() }

    /// Writes all of `bytes` (`write(2)`, short writes continued).
    func write(_ bytes: [UInt8]) throws(CLIError) {
        guard let fd else { throw CLIError.runtime("cannot write \(path): already closed") }
        do {
            try bytes.withUnsafeBytes { b in Result { () throws(Errno) in try fd.writeAllRetrying(b) } }.get()
        } catch {
            throw CLIError.runtime("cannot write \(path): \(error)")
        }
    }

    func close() {
        try? fd?.close()  // close(2)
        fd = nil
    }
}

/// This program's binary, through /proc (argv[0] may be a bare name found on PATH).
func ownExecutable() throws(CLIError) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)  // readlink(2)
    guard n > 0 else { throw .runtime("cannot find this program's binary in /proc/self/exe: \(systemError())") }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
