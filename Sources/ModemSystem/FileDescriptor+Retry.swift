public import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations of every module that reads or writes descriptors, on swift-system's
/// `FileDescriptor`, with one retry policy: `EINTR` is retried (swift-system's
/// `retryOnInterrupt`); `EAGAIN` (a non-blocking standard input or output handed over by
/// the shell) waits for the descriptor with `poll(2)` and retries; any other failure
/// throws the `Errno`, whose description is the system's text (`strerror(3)`), for the
/// caller to put in an error that names the file and the operation.
extension FileDescriptor {
    /// Opens `path` with close-on-exec: for reading, or for writing (created with mode 0644
    /// or emptied). Calls `open(2)`.
    public static func open(_ path: String, forWriting: Bool = false) throws(Errno) -> FileDescriptor {
        let options: OpenOptions = forWriting ? [.create, .truncate, .closeOnExec] : [.closeOnExec]
        return try errno {
            try FileDescriptor.open(
                FilePath(path), forWriting ? .writeOnly : .readOnly, options: options,
                permissions: forWriting ? [.ownerReadWrite, .groupRead, .otherRead] : nil)
        }
    }

    /// True when the descriptor names a directory; false when it does not, or cannot be
    /// examined. Calls `fstat(2)`.
    public var isDirectory: Bool { (try? stat().type) == .directory }

    /// Reads up to `buffer.count` bytes; returns 0 only at the end of the file. Calls `read(2)`.
    public func readRetrying(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            do {
                return try errno { try read(into: buffer) }
            } catch .resourceTemporarilyUnavailable {
                waitUntilReady(Int16(POLLIN))
            }
        }
    }

    /// Reads until `buffer` is full or the file ends; returns the number of bytes read.
    /// Calls `read(2)`.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        var total = 0
        while total < buffer.count {
            let n = try readRetrying(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
            if n == 0 { break }
            total += n
        }
        return total
    }

    /// Writes every byte of `buffer`, continuing after short writes. Calls `write(2)`.
    public func writeAllRetrying(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var done = 0
        while done < buffer.count {
            do {
                done += try errno { try write(UnsafeRawBufferPointer(rebasing: buffer[done...])) }
            } catch .resourceTemporarilyUnavailable {
                waitUntilReady(Int16(POLLOUT))
            }
        }
    }

    /// Waits up to a second for `events` on this descriptor (`poll(2)`); the caller retries
    /// either way.
    private func waitUntilReady(_ events: Int16) {
        var p = pollfd(fd: rawValue, events: events, revents: 0)
        _ = poll(&p, 1, 1000)
    }
}

/// Runs a swift-system call, whose errors are untyped but always `Errno`, with a typed error.
@inline(__always)
private func errno<T>(_ call: () throws -> T) throws(Errno) -> T {
    do { return try call() } catch let e as Errno { throw e } catch { throw Errno(rawValue: EIO) }
}
