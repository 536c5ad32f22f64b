#if canImport(Glibc)
    import Glibc
#endif

/// Bytes for the live transmitting commands, from standard input (tx, term) or a
/// pseudo-terminal's master side (serial): waits with a timeout so the caller can keep its
/// audio fed meanwhile. One retry policy: EINTR and EAGAIN are "nothing yet"; any other
/// error is a runtime error.
struct InputReader {
    enum Input {
        /// This many bytes arrived in ``buffer``.
        case bytes(Int)
        /// Nothing arrived within the timeout.
        case nothing
        /// End of input.
        case end
    }

    let descriptor: Int32
    let name: String
    /// A pseudo-terminal's master reads EIO while no program has the port open: that is a
    /// pause, not an end, since a program may open it again.
    let survivesHangup: Bool
    private(set) var buffer = [UInt8](repeating: 0, count: 4096)

    init(descriptor: Int32 = 0, name: String = "stdin", survivesHangup: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.survivesHangup = survivesHangup
    }

    /// Waits up to `milliseconds` for input (`poll`), then reads what is there (`read`).
    mutating func read(waiting milliseconds: Int32) throws(CLIError) -> Input {
        var p = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&p, 1, milliseconds)
        if ready == 0 { return .nothing }
        if ready < 0 {
            if errno == EINTR { return .nothing }
            throw .runtime("error waiting for \(name): \(String(cString: strerror(errno)))")
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
            throw .runtime("error reading \(name): \(String(cString: strerror(errno)))")
        }
        if got == 0 { return survivesHangup ? .nothing : .end }
        return .bytes(got)
    }
}
