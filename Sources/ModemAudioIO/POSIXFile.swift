#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over read(2) and write(2) with the retry policy spelled out: EINTR is
/// retried; EAGAIN waits for the descriptor with poll(2); anything else is returned as errno text.
/// An errno value from a failed system call.
public struct Errno: Error {
    public let code: Int32
}

public enum POSIXFile {
    /// The system's text for an errno value (`strerror(3)`).
    public static func errorText(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }

    /// Calls read(2) until it returns data, end of file (0) or a real error.
    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Result<Int, Errno> {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return .success(n) }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { waitFor(fd, Int16(POLLIN)); continue }
            return .failure(Errno(code: e))
        }
    }

    /// Reads until `count` bytes or end of file; returns the number read.
    public static func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Result<Int, Errno> {
        var total = 0
        while total < count {
            switch read(fd, buffer + total, count - total) {
            case .success(0): return .success(total)
            case .success(let n): total += n
            case .failure(let e): return .failure(e)
            }
        }
        return .success(total)
    }

    /// Calls write(2) until every byte is written or a real error occurs.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int32? {
        var done = 0
        while done < count {
            let n = Glibc.write(fd, buffer + done, count - done)
            if n >= 0 { done += n; continue }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { waitFor(fd, Int16(POLLOUT)); continue }
            return e
        }
        return nil
    }

    private static func waitFor(_ fd: Int32, _ events: Int16) {
        var p = pollfd(fd: fd, events: events, revents: 0)
        _ = poll(&p, 1, 1000)
    }
}

/// Buffered writer of raw bytes to a file descriptor (stdout by default).
public struct ByteSink: ~Copyable {
    public let fd: Int32
    public let name: String
    private var buffer: [UInt8] = []
    private let capacity: Int

    public init(fd: Int32 = 1, name: String = "stdout", capacity: Int = 1 << 16) {
        self.fd = fd
        self.name = name
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    public mutating func write(_ byte: UInt8) throws(AudioIOError) {
        buffer.append(byte)
        if buffer.count >= capacity { try flush() }
    }

    public mutating func write(_ bytes: some Sequence<UInt8>) throws(AudioIOError) {
        for b in bytes { try write(b) }
    }

    public mutating func flush() throws(AudioIOError) {
        guard !buffer.isEmpty else { return }
        let error = buffer.withUnsafeBytes { POSIXFile.writeAll(fd, $0.baseAddress!, $0.count) }
        buffer.removeAll(keepingCapacity: true)
        if let error { throw .writeFailed(path: name, reason: POSIXFile.errorText(error)) }
    }
}
