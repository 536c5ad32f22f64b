// The two parser shapes several protocols share: a message per text line, and a message
// per byte. Each protocol says only how its message reads a line or a byte.

/// A message carried by one text line (``TextLine``), as Arduino sketches print them.
public protocol LineMessage: FramedMessage {
    /// The message `line` carries; nil when the line is not one (it counts as discarded).
    init?(line: TextLine)
}

/// Parses one ``LineMessage`` per text line: ``TextLineParser`` frames the lines, and the
/// bytes of lines that are not a message are counted as discarded.
public struct LineMessageParser<Message: LineMessage>: SingleMessageParser {
    private var lines = TextLineParser()
    private var rejected = 0
    /// A parser with no line in progress.
    public init() {}
    /// Bytes the line framer dropped, plus every byte (terminator included) of lines that were
    /// not a message.
    public var discardedBytes: Int { lines.discardedBytes + rejected }
    /// Bytes of the line in progress.
    public var bufferedBytes: Int { lines.bufferedBytes }

    /// Pushes one byte into the line framer; a completed line becomes a message or is
    /// counted as discarded.
    public mutating func push(_ byte: UInt8, at time: Double) -> Message? {
        guard let line = lines.push(byte, at: time) else { return nil }
        if let message = Message(line: line) { return message }
        rejected += line.raw.count
        return nil
    }
}

/// A message that is exactly one byte, whatever its value.
public protocol ByteMessage: FramedMessage {
    /// The message `byte` alone makes; every value is one.
    init(byte: UInt8)
}

/// Parses every byte as one ``ByteMessage``: nothing is ever discarded or buffered.
public struct ByteMessageParser<Message: ByteMessage>: SingleMessageParser {
    /// Always 0: every byte is a message.
    public let discardedBytes = 0
    /// Always 0: nothing is held between bytes.
    public let bufferedBytes = 0
    /// A parser; it keeps no state.
    public init() {}
    /// Returns every byte as its own message; `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double) -> Message? { Message(byte: byte) }
}
