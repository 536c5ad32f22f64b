#if canImport(Glibc)
import Glibc
#endif

/// Standard input for the live transmitting commands (tx, term): waits for bytes with a
/// timeout so the caller can keep its audio fed meanwhile. One retry policy: EINTR and
/// EAGAIN are "nothing yet"; any other error is a runtime error.
struct StdinReader {
    enum Input {
        /// This many bytes arrived in ``buffer``.
        case bytes(Int)
        /// Nothing arrived within the timeout.
        case nothing
        /// End of input.
        case end
    }

    private(set) var buffer = [UInt8](repeating: 0, count: 4096)

    /// Waits up to `milliseconds` for input (`poll`), then reads what is there (`read`).
    mutating func read(waiting milliseconds: Int32) throws(CLIError) -> Input {
        var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&p, 1, milliseconds)
        if ready == 0 { return .nothing }
        if ready < 0 {
            if errno == EINTR { return .nothing }
            throw .runtime("error waiting for stdin: \(String(cString: strerror(errno)))")
        }
        let got = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress!, $0.count) }
        if got < 0 {
            if errno == EINTR || errno == EAGAIN { return .nothing }
            throw .runtime("error reading stdin: \(String(cString: strerror(errno)))")
        }
        return got == 0 ? .end : .bytes(got)
    }
}
