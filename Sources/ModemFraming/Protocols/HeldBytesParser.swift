/// The rules of a protocol whose messages are a few bytes held until they complete one:
/// what each byte does to the held bytes.
public protocol HeldBytesFraming: Sendable {
    /// The message a completed run of held bytes becomes.
    associatedtype Message: FramedMessage
    /// Feeds `byte`: appends it to `held`, or drops from `held` (and counts in `discarded`)
    /// what cannot start a message; returns the message it completes, emptying `held`.
    static func push(_ byte: UInt8, held: inout [UInt8], discarded: inout Int) -> Message?
}

/// Parses a ``HeldBytesFraming`` protocol: the held bytes and the discarded count live here,
/// the protocol says only what a byte does.
public struct HeldBytesParser<Framing: HeldBytesFraming>: SingleMessageParser {
    /// The message type of the ``HeldBytesFraming`` protocol being parsed.
    public typealias Message = Framing.Message
    /// Bytes the framing has dropped so far because they could start no message.
    public private(set) var discardedBytes = 0
    private var held: [UInt8] = []
    /// A parser holding no bytes.
    public init() {}
    /// Bytes held towards a message not yet complete.
    public var bufferedBytes: Int { held.count }

    /// Hands the byte to the framing's rules along with the held bytes; `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double) -> Framing.Message? {
        Framing.push(byte, held: &held, discarded: &discardedBytes)
    }
}
