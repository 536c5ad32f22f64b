import ModemAudioIO
#if canImport(Glibc)
import Glibc
#endif

// Plain POSIX file access for the commands that move files (send, receive, bench): no
// Foundation is linked at all (see CFormat.swift), which keeps the binary small and the
// start-up short. Reads and writes go
// through ModemAudioIO's POSIXFile (EINTR retried, EAGAIN waited for); any other failure is
// a one-line CLIError naming the file and the system's reason.

/// The system's text for `errno`.
func systemError() -> String { POSIXFile.errorText(errno) }

/// `directory/name`, for a directory given on the command line.
func joinPath(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}

/// The last component of `path` (trailing slashes ignored): what `basename(1)` prints.
func baseName(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed.split(separator: "/", omittingEmptySubsequences: true).last ?? trimmed)
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
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// A file opened for reading in chunks; closed when released.
final class InputFile {
    let path: String
    private let fd: Int32

    init(path: String) throws(CLIError) {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)  // open(2)
        guard fd >= 0 else { throw CLIError.runtime("cannot open \(path): \(systemError())") }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {  // fstat(2): the file opened, not the path again
            close(fd)
            throw CLIError.runtime("cannot open \(path): is a directory")
        }
    }

    deinit { close(fd) }

    /// Up to `count` bytes; empty at the end of the file.
    func read(upTo count: Int) throws(CLIError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        let result = chunk.withUnsafeMutableBytes { POSIXFile.read(fd, $0.baseAddress!, $0.count) }
        switch result {
        case .success(let n):
            chunk.removeLast(count - n)
            return chunk
        case .failure(let e):
            throw CLIError.runtime("cannot read \(path): \(POSIXFile.errorText(e.code))")
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
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw CLIError.runtime("cannot rewind \(path): \(systemError())") }
    }
}

/// A file created (or emptied) for writing; closed by ``close()`` or when released.
final class OutputFile {
    let path: String
    private var fd: Int32

    init(path: String) throws(CLIError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)  // open(2)
        guard fd >= 0 else { throw CLIError.runtime("cannot write \(path): \(systemError())") }
    }

    deinit { close() }

    /// Writes all of `bytes` (`write(2)`, short writes continued).
    func write(_ bytes: [UInt8]) throws(CLIError) {
        guard fd >= 0 else { throw CLIError.runtime("cannot write \(path): already closed") }
        if let e = bytes.withUnsafeBytes({ POSIXFile.writeAll(fd, $0.baseAddress!, $0.count) }) {
            throw CLIError.runtime("cannot write \(path): \(POSIXFile.errorText(e))")
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }  // close(2)
        fd = -1
    }
}

/// Runs `program` with `arguments` (`posix_spawn(3)`, standard error to /dev/null) and
/// returns what it wrote to standard output once it has exited.
func runCapturingOutput(_ program: String, _ arguments: [String]) throws(CLIError) -> [UInt8] {
    var pipeFDs: [Int32] = [-1, -1]
    guard pipe(&pipeFDs) == 0 else { throw CLIError.runtime("cannot run \(program): \(systemError())") }  // pipe(2)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid = pid_t()
    let status = posix_spawn(&pid, program, &actions, nil, argv, environ)
    Glibc.close(pipeFDs[1])
    guard status == 0 else {
        Glibc.close(pipeFDs[0])
        throw CLIError.runtime("cannot run \(program): \(String(cString: strerror(status)))")
    }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while case .success(let n) = chunk.withUnsafeMutableBytes({ POSIXFile.read(pipeFDs[0], $0.baseAddress!, $0.count) }), n > 0 {
        output += chunk[0..<n]
    }
    Glibc.close(pipeFDs[0])
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}  // waitpid(2)
    return output
}
