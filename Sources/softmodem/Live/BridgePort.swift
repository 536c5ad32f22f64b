import ModemAudioIO
import ModemLive

/// Standard output as a bridge's port (`term`), buffered and flushed after each batch.
final class StandardOutputPort: BridgePort {
    private var sink = ByteSink()

    func put(_ byte: UInt8) throws(LiveError) {
        do { try sink.write(byte) } catch { throw .output(error) }
    }

    func flush() throws(LiveError) {
        do { try sink.flush() } catch { throw .output(error) }
    }
}
