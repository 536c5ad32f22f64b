/// The stream toggle: any single byte flips the board between streaming and quiet.
public struct StreamToggle: FramedMessage, Equatable {
    /// The state the board is in after this byte, assuming it started quiet.
    public var streaming: Bool
    /// The byte the host sent; its value does not matter to the board.
    public var byte: UInt8
    /// The single toggle byte.
    public var raw: [UInt8] { [byte] }
    /// One field, "streaming": the board's state after this byte.
    public var fields: [MessageField] { [MessageField("streaming", .bool(streaming))] }
    /// "toggle: streaming" or "toggle: quiet", the board's state after this byte.
    public var description: String { streaming ? "toggle: streaming" : "toggle: quiet" }

    /// The toggle byte the examples send ('t'); any byte works.
    public static let defaultByte = UInt8(ascii: "t")
}

/// Every byte is a toggle; nothing is ever discarded. Tracks the board's resulting state.
public struct StreamToggleParser: SingleMessageParser {
    /// This parser completes one ``StreamToggle`` per byte.
    public typealias Message = StreamToggle
    /// The board's state after the bytes so far, starting quiet: true after an odd number of bytes.
    public private(set) var streaming = false
    /// Always 0: every byte is a toggle.
    public let discardedBytes = 0
    /// Always 0: each byte completes its message at once.
    public let bufferedBytes = 0
    /// A parser that assumes the board starts quiet.
    public init() {}

    /// Flips the tracked state and returns it as a toggle, so every byte is a message;
    /// `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double) -> StreamToggle? {
        streaming.toggle()
        return StreamToggle(streaming: streaming, byte: byte)
    }
}
