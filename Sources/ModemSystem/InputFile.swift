import SystemPackage

/// A file opened for reading in chunks (`open(2)`, `read(2)`); closed when released.
public final class InputFile {
    /// The path it was opened by, for messages.
    public let path: String
    private let fd: FileDescriptor
    /// False for standard input, which this object reads but never closes.
    private let owned: Bool

    /// Opens `path`; a directory is refused at once (checked on the opened descriptor, so a
    /// path that changes in between cannot slip through).
    public init(path: String) throws(SystemError) {
        self.path = path
        owned = true
        do {
            fd = try FileDescriptor.open(path)
        } catch {
            throw SystemError(.open, path, .system(error))
        }
        if fd.isDirectory {
            try? fd.close()
            throw SystemError(.open, path, .isDirectory)
        }
    }

    private init(standardInput: ()) {
        path = "stdin"
        fd = .standardInput
        owned = false
    }

    /// Standard input, read in chunks as a file is; its descriptor stays open.
    public static func standardInput() -> InputFile { InputFile(standardInput: ()) }

    deinit { if owned { try? fd.close() } }

    /// Up to `count` bytes; empty at the end of the file.
    public func read(upTo count: Int) throws(SystemError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        do {
            let n = try chunk.withUnsafeMutableBytes { b in Result { () throws(Errno) in try fd.readRetrying(into: b) }
            }.get()
            chunk.removeLast(count - n)
            return chunk
        } catch {
            throw SystemError(.read, path, .system(error))
        }
    }

    /// Everything from the current position to the end of the file.
    public func readAll() throws(SystemError) -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = try read(upTo: 1 << 16)
            if chunk.isEmpty { return all }
            all += chunk
        }
    }

    /// Back to the first byte (`lseek(2)`).
    public func rewind() throws(SystemError) {
        do {
            _ = try fd.seek(offset: 0, from: .start)
        } catch {
            throw SystemError(.rewind, path, .system((error as? Errno) ?? .ioError))
        }
    }
}

/// A file created (or emptied) for writing, mode 0644; closed by ``close()`` or when
/// released.
public final class OutputFile {
    /// The path it was created at, for messages.
    public let path: String
    private var fd: FileDescriptor?

    /// Creates `path`, or empties it if it exists; fails with ``SystemError/Operation/write``.
    public init(path: String) throws(SystemError) {
        self.path = path
        do {
            fd = try FileDescriptor.open(path, forWriting: true)
        } catch {
            throw SystemError(.write, path, .system(error))
        }
    }

    deinit { close() }

    /// Writes all of `bytes` (`write(2)`, short writes continued); after ``close()`` it
    /// throws ``SystemError/Reason/closed``.
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        guard let fd else { throw SystemError(.write, path, .closed) }
        do {
            try bytes.withUnsafeBytes { b in Result { () throws(Errno) in try fd.writeAllRetrying(b) } }.get()
        } catch {
            throw SystemError(.write, path, .system(error))
        }
    }

    /// Closes the file (`close(2)`); closing twice does nothing.
    public func close() {
        try? fd?.close()
        fd = nil
    }
}
