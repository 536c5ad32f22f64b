/// The stream toggle: any single byte flips the board between streaming and quiet.
public struct StreamToggle: FramedMessage, Equatable {
    /// The state the board is in after this byte, assuming it started quiet.
    public var streaming: Bool
    public var byte: UInt8
    public var raw: [UInt8] { [byte] }
    public var fields: [MessageField] { [MessageField("streaming", .bool(streaming))] }
    public var description: String { streaming ? "toggle: streaming" : "toggle: quiet" }

    /// The toggle byte the examples send ('t'); any byte works.
    public static let defaultByte = UInt8(ascii: "t")
}

/// Every byte is a toggle; nothing is ever discarded. Tracks the board's resulting state.
public struct StreamToggleParser: SingleMessageParser {
    public typealias Message = StreamToggle
    public private(set) var streaming = false
    public let discardedBytes = 0
    public let bufferedBytes = 0
    public init() {}

    public mutating func push(_ byte: UInt8, at time: Double) -> StreamToggle? {
        streaming.toggle()
        return StreamToggle(streaming: streaming, byte: byte)
    }
}
