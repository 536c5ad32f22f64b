/// What a decode session counted on the chosen channel (levels: over every channel).
public struct DecodeStats: Sendable {
    public var bytes = 0
    public var framingErrors = 0
    public var parityErrors = 0
    public var bursts = 0
    public var frames: Int64 = 0
    /// Non-zero once a finite non-zero sample was seen (the largest one of that step).
    public var peak: Float = 0
    /// Samples that were NaN or infinite before the first non-zero one.
    public var nonFinite: Int64 = 0
    /// Bytes decoded but not passed on: the signal did not match the pinned profile.
    public var withheld = 0
    /// HiJack: the last good frame's bit rate and polarity.
    public var baud: Double?
    public var inverted: Bool?

    public init() {}
}
