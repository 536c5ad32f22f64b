/// What a byte source had when asked (``ByteInput/read(waiting:)``).
public enum ByteInputResult: Sendable, Equatable {
    /// This many bytes arrived at the start of the input's buffer.
    case bytes(Int)
    /// Nothing arrived within the wait.
    case nothing
    /// End of input.
    case end
}

/// Bytes for the live transmitting loops: standard input, a pseudo-terminal, or a test's
/// script. Waits with a timeout so the caller can keep its audio fed meanwhile.
public protocol ByteInput {
    /// Holds the bytes of the last ``read(waiting:)`` at its start.
    var buffer: [UInt8] { get }
    /// Waits up to `milliseconds` for input and takes what is there.
    mutating func read(waiting milliseconds: Int32) throws(LiveError) -> ByteInputResult
}

/// Where a bridge delivers decoded bytes: standard output, a pseudo-terminal, a test's array.
public protocol BridgePort: AnyObject {
    /// Takes one decoded byte (delivered at the next ``flush()``, or at once).
    func put(_ byte: UInt8) throws(LiveError)
    /// Called after each batch of bytes, so they reach the reader promptly.
    func flush() throws(LiveError)
}

/// A byte input fed by a test or a program: bytes are handed out in the pieces they were
/// queued in (each piece one read, as writes that arrive together), then the end if closed.
public struct MemoryByteInput: ByteInput {
    private var pieces: [[UInt8]]
    private let closes: Bool
    /// The piece handed out by the last ``read(waiting:)``.
    public private(set) var buffer: [UInt8] = []

    /// Hands out `pieces` one per read; then ``ByteInputResult/end`` when `closes`, else
    /// ``ByteInputResult/nothing`` for ever.
    public init(_ pieces: [[UInt8]], closes: Bool = true) {
        self.pieces = pieces.reversed()
        self.closes = closes
    }

    /// Hands out the next piece at once (an empty piece reads as ``ByteInputResult/nothing``);
    /// `milliseconds` is ignored.
    public mutating func read(waiting milliseconds: Int32) throws(LiveError) -> ByteInputResult {
        guard let next = pieces.popLast() else { return closes ? .end : .nothing }
        buffer = next
        return next.isEmpty ? .nothing : .bytes(next.count)
    }
}

/// Keeps every byte delivered, for tests and programs that collect them.
public final class MemoryPort: BridgePort {
    /// Every byte put, in order.
    public private(set) var bytes: [UInt8] = []
    /// How many times ``flush()`` was called.
    public private(set) var flushes = 0

    /// An empty port.
    public init() {}

    /// Keeps `byte`; never throws.
    public func put(_ byte: UInt8) throws(LiveError) { bytes.append(byte) }
    /// Counts the call; never throws.
    public func flush() throws(LiveError) { flushes += 1 }
}
