/// The distinct byte values seen so far: one bit per value, no allocation.
///
/// Format proof and the 7-or-8-bit content rule both count distinct characters (a burst
/// of one repeated byte proves nothing); this is their one count.
struct DistinctBytes: Sendable {
    private var bits = SIMD4<UInt64>()
    /// How many distinct values were inserted.
    private(set) var count = 0

    /// Adds `value`; returns true when it was not there before.
    @discardableResult
    mutating func insert(_ value: UInt8) -> Bool {
        let word = Int(value >> 6)
        let bit = UInt64(1) << UInt64(value & 63)
        guard bits[word] & bit == 0 else { return false }
        bits[word] |= bit
        count += 1
        return true
    }
}
