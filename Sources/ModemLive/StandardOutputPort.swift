import ModemAudioIO

/// Standard output as a bridge's port (`term`), buffered and flushed after each batch.
public final class StandardOutputPort: BridgePort {
    private var sink = ByteSink()

    /// Writes to file descriptor 1, whatever it is (a pipe, a file, a terminal).
    public init() {}

    /// Queues `byte`; a failed write of earlier bytes throws ``LiveError/output(_:)``.
    public func put(_ byte: UInt8) throws(LiveError) {
        do { try sink.write(byte) } catch { throw .output(error) }
    }

    /// Writes what is queued.
    public func flush() throws(LiveError) {
        do { try sink.flush() } catch { throw .output(error) }
    }
}
