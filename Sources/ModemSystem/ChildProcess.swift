import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Other programs run to their end: a report renderer, minimodem for a comparison.
public enum ChildProcess {
    /// What a program did.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal's number when a signal ended it (as shells
        /// say).
        public var status: Int32
        /// Everything the program wrote on its standard output.
        public var output: [UInt8]
        /// Everything it wrote on its standard error.
        public var errorOutput: [UInt8]

        /// The first line of standard error, for a one-line message.
        public var firstErrorLine: String {
            String(decoding: errorOutput.prefix { $0 != 0x0A }, as: UTF8.self)
        }
    }

    /// Runs `program` (a path) with `arguments` (`posix_spawn(3)`, `waitpid(2)`) and returns
    /// what it wrote once it has exited. `input` is its standard input (nil: /dev/null).
    ///
    /// Standard input and standard error go through unlinked temporary files, so neither
    /// side can block the other (a program that writes much to both pipes while its parent
    /// reads one would wait forever) and a program that exits before reading its input
    /// raises no SIGPIPE here. Standard output is a pipe read to its end. A program that
    /// cannot be started throws; one that fails returns its status.
    public static func run(_ program: String, _ arguments: [String], input: [UInt8]? = nil) throws(SystemError)
        -> Result
    {
        let stdin = try input.map { bytes throws(SystemError) in try TemporaryFile(holding: bytes, for: program) }
        let stderr = try TemporaryFile(holding: [], for: program)
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            pipe = try FileDescriptor.pipe()  // pipe(2)
        } catch {
            throw SystemError(.run, program, .system((error as? Errno) ?? .ioError))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin.descriptor.rawValue, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.descriptor.rawValue, 2)
        posix_spawn_file_actions_addclose(&actions, pipe.readEnd.rawValue)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        try? pipe.writeEnd.close()
        guard spawned == 0 else {
            try? pipe.readEnd.close()
            throw SystemError(.run, program, .system(Errno(rawValue: spawned)))
        }
        let output = readToEnd(pipe.readEnd)
        try? pipe.readEnd.close()
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = waitStatus & 0x7F
        let status = signal == 0 ? (waitStatus >> 8) & 0xFF : 128 + signal
        return Result(status: status, output: output, errorOutput: try stderr.contents())
    }

    /// Runs `program` with `arguments`, standard error discarded, and returns its standard
    /// output whatever its status.
    public static func output(_ program: String, _ arguments: [String]) throws(SystemError) -> [UInt8] {
        try run(program, arguments).output
    }

    /// Everything until the end of `descriptor`; a read error ends it early.
    private static func readToEnd(_ descriptor: FileDescriptor) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case .success(let n) = chunk.withUnsafeMutableBytes({ b in
            Swift.Result { () throws(Errno) in try descriptor.readRetrying(into: b) }
        }), n > 0 {
            output += chunk[0..<n]
        }
        return output
    }
}

/// A temporary file that no directory names (`mkstemp(3)` then `unlink(2)`): it goes away
/// with its last descriptor, whatever happens to this process.
private final class TemporaryFile {
    let descriptor: FileDescriptor

    init(holding bytes: [UInt8], for program: String) throws(SystemError) {
        var template = Array(FilePaths.join(FilePaths.temporaryDirectory(), "softmodem.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        // Only the descriptors the child is given as 0 and 2 reach it (fcntl(2)).
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard fd >= 0 else { throw .current(.runTemporaryFile, program) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = FileDescriptor(rawValue: fd)
        do {
            try bytes.withUnsafeBytes { b in Swift.Result { () throws(Errno) in try descriptor.writeAllRetrying(b) } }
                .get()
            _ = try descriptor.seek(offset: 0, from: .start)
        } catch {
            throw SystemError(.runTemporaryFile, program, .system((error as? Errno) ?? .ioError))
        }
    }

    deinit { try? descriptor.close() }

    /// Everything in the file, from its first byte.
    func contents() throws(SystemError) -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 12)
        do {
            _ = try descriptor.seek(offset: 0, from: .start)
            while true {
                let n = try chunk.withUnsafeMutableBytes { b in
                    Swift.Result { () throws(Errno) in try descriptor.readRetrying(into: b) }
                }.get()
                if n == 0 { return all }
                all += chunk[0..<n]
            }
        } catch {
            throw SystemError(.readTemporaryFile, "", .system((error as? Errno) ?? .ioError))
        }
    }
}
