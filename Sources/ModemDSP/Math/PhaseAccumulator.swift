/// The running phase of a tone, in radians in [0, 2 pi): it advances by a step per sample
/// and wraps, so a tone stays continuous across chunks and across changes of frequency.
public struct PhaseAccumulator: Sendable {
    @usableFromInline var phase: Double = 0

    /// A phase of 0 radians.
    public init() {}

    /// The current phase in radians, in [0, 2 pi): what the next ``next(step:)`` returns.
    public var radians: Double { phase }

    /// Returns the phase, then advances it by `step` radians (at most 2 pi).
    @inlinable @inline(__always)
    public mutating func next(step: Double) -> Double {
        let now = phase
        phase += step
        if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
        return now
    }
}
