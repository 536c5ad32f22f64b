/// The rules of a protocol whose messages are a few bytes held until they complete one:
/// what each byte does to the held bytes.
public protocol HeldBytesFraming: Sendable {
    associatedtype Message: FramedMessage
    /// Feeds `byte`: appends it to `held`, or drops from `held` (and counts in `discarded`)
    /// what cannot start a message; returns the message it completes, emptying `held`.
    static func push(_ byte: UInt8, held: inout [UInt8], discarded: inout Int) -> Message?
}

/// Parses a ``HeldBytesFraming`` protocol: the held bytes and the discarded count live here,
/// the protocol says only what a byte does.
public struct HeldBytesParser<Framing: HeldBytesFraming>: SingleMessageParser {
    public typealias Message = Framing.Message
    public private(set) var discardedBytes = 0
    private var held: [UInt8] = []
    public init() {}
    public var bufferedBytes: Int { held.count }

    public mutating func push(_ byte: UInt8, at time: Double) -> Framing.Message? {
        Framing.push(byte, held: &held, discarded: &discardedBytes)
    }
}
