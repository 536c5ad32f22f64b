/// One HiJack frame the decoder found, or one it had to reject.
public struct HiJackEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Start 0, 8 data bits, even parity and stop 1 all checked out.
        case byte
        /// The parity bit disagreed with the data: the byte is dropped.
        case parityError
        /// The stop bit was 0, or the bit clock was lost inside the frame: dropped.
        case framingError
    }

    public var kind: Kind
    /// The data bits (LSB first on the wire); for errors, what they read as so far.
    public var value: UInt8
    /// Sample index (from the first sample given to the decoder, plus the filters' delay)
    /// where the start bit's cell began.
    public var startSample: Int64
    /// The bit rate measured over the frame.
    public var baud: Double
    /// True when the line was inverted (start bit seen as a rising mid-cell transition).
    public var inverted: Bool

    public init(kind: Kind, value: UInt8, startSample: Int64, baud: Double, inverted: Bool) {
        self.kind = kind
        self.value = value
        self.startSample = startSample
        self.baud = baud
        self.inverted = inverted
    }
}
