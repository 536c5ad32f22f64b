/// How fast a link carried payload over some span of time, and what share of the line's rate
/// that is: the one place `send`, `receive` and the reliable bridge work it out.
public struct PayloadRate: Sendable, Equatable {
    /// Payload bytes carried.
    public var bytes: Int
    /// Seconds they took (0 when nothing was carried).
    public var seconds: Double
    /// Bytes a second the line carries (the modem's characters, framing bits included).
    public var lineBytesPerSecond: Double

    /// `bytes` carried in `seconds` on a line of `lineBytesPerSecond`.
    public init(bytes: Int, seconds: Double, lineBytesPerSecond: Double) {
        self.bytes = bytes
        self.seconds = seconds
        self.lineBytesPerSecond = lineBytesPerSecond
    }

    /// Payload bytes per second (0 over no time).
    public var bytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds : 0 }
    /// ``bytesPerSecond`` as a share of the line's rate (0 to about 1; 0 for a line of no rate).
    public var efficiency: Double { lineBytesPerSecond > 0 ? bytesPerSecond / lineBytesPerSecond : 0 }
}
