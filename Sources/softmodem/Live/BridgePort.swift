import ModemAudioIO

/// Where a ``LiveBridge`` delivers decoded bytes: standard output (`term`) or a
/// pseudo-terminal (`serial`).
protocol BridgePort: AnyObject {
    func put(_ byte: UInt8) throws(CLIError)
    /// Called after each batch of bytes, so they reach the reader promptly.
    func flush() throws(CLIError)
}

/// Standard output, buffered and flushed after each batch.
final class StandardOutputPort: BridgePort {
    private var sink = ByteSink()

    func put(_ byte: UInt8) throws(CLIError) {
        do { try sink.write(byte) } catch { throw CLIError(error) }
    }

    func flush() throws(CLIError) {
        do { try sink.flush() } catch { throw CLIError(error) }
    }
}
