/// A small seeded generator (SplitMix64): the simulated lines' impairments and the sender's
/// random bytes and timer jitter, reproducible from a seed, with no DSP module needed.
struct SplitMix64: Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var x = state
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
    mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}
