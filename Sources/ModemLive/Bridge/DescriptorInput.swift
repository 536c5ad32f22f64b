#if canImport(Glibc)
    import Glibc
#endif

/// Bytes from a file descriptor: standard input, or a pseudo-terminal's master side.
/// One retry policy: EINTR and EAGAIN are "nothing yet"; any other error ends the session.
public struct DescriptorInput: ByteInput {
    /// The file descriptor read (0: standard input).
    public let descriptor: Int32
    /// What errors call the stream: `stdin`, or the pseudo-terminal's path.
    public let name: String
    /// A pseudo-terminal's master reads EIO while no program has the port open: that is a
    /// pause, not an end, since a program may open it again.
    public let survivesHangup: Bool
    /// Holds the bytes of the last ``read(waiting:)`` at its start (up to 4096 a read).
    public private(set) var buffer = [UInt8](repeating: 0, count: 4096)

    /// Reads `descriptor` (standard input by default), named `name` in errors.
    public init(descriptor: Int32 = 0, name: String = "stdin", survivesHangup: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.survivesHangup = survivesHangup
    }

    /// Waits up to `milliseconds` for input (`poll`), then reads what is there (`read`).
    public mutating func read(waiting milliseconds: Int32) throws(LiveError) -> ByteInputResult {
        var p = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&p, 1, milliseconds)
        if ready == 0 { return .nothing }
        if ready < 0 {
            if errno == EINTR { return .nothing }
            throw .stream(name: name, operation: .waiting, errno: errno)
        }
        if survivesHangup && p.revents & Int16(POLLHUP) != 0 && p.revents & Int16(POLLIN) == 0 {
            // Nobody has the port open: wait instead of spinning on the hangup.
            usleep(UInt32(max(0, milliseconds)) * 1000)
            return .nothing
        }
        let fd = descriptor
        let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        if got < 0 {
            if errno == EINTR || errno == EAGAIN || (survivesHangup && errno == EIO) { return .nothing }
            throw .stream(name: name, operation: .reading, errno: errno)
        }
        if got == 0 { return survivesHangup ? .nothing : .end }
        return .bytes(got)
    }
}
