/// What a decode session counted on the chosen channel (levels: over every channel).
public struct DecodeStats: Sendable {
    /// Bytes delivered from the chosen channel (withheld bytes excluded).
    public var bytes = 0
    /// Framing errors delivered from the chosen channel.
    public var framingErrors = 0
    /// Parity errors delivered from the chosen channel.
    public var parityErrors = 0
    /// Bursts reported; counted only when verbose, since bursts are tracked only for `-v`.
    public var bursts = 0
    /// Frames (one sample per channel) read so far.
    public var frames: Int64 = 0
    /// Non-zero once a finite non-zero sample was seen (the largest one of that step).
    public var peak: Float = 0
    /// Samples that were NaN or infinite before the first non-zero one.
    public var nonFinite: Int64 = 0
    /// Bytes decoded but not passed on: the signal did not match the pinned profile.
    public var withheld = 0
    /// HiJack: the last good frame's bit rate and polarity.
    public var baud: Double?
    /// HiJack: whether the last good frame was inverted; nil until one arrives.
    public var inverted: Bool?

    /// All counts zero, no peak seen and no HiJack frame yet.
    public init() {}
}
