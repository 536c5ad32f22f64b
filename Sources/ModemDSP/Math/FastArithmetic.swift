// The two pieces of arithmetic the demodulator's per-character loops cannot take from the
// math library (swift-numerics' RealModule, used everywhere else): rounding without libm's
// call and range check, and an arctangent whose latency, not its last ulp, sets the pace of
// the phase trackers (a chain of one division and an Estrin polynomial). With libm's atan2
// in its place the 10-minute capture of bench/compare-minimodem.sh took 975.9 M instructions
// instead of 960.8 M (callgrind), 1.6 % of the whole decode for the last ulp of a phase.

/// Rounds to the nearest integer, halves up (floor(x + 0.5)), without calling libm's
/// `round` (which the baseline x86-64 target cannot inline) and without the range check of
/// `Int(_: Double)`: the per-character code rounds a few hundred bit boundaries per
/// character, and the check was a tenth of its cost. Valid for |x| < 2^50 (segment counts
/// reach that after some 4000 years of audio); NaN and larger values give an unspecified
/// integer, never a trap.
@inline(__always)
func roundToInt(_ x: Double) -> Int {
    let y = x + 0.5
    // 1.5 * 2^52 + y lies in [2^52, 2^53), where doubles are exactly the integers: the sum
    // rounds y to the nearest integer, and its bit pattern minus the constant's is that
    // integer.
    let magic: Double = 0x1.8p52
    let m = y + magic
    let nearest = Int(truncatingIfNeeded: Int64(bitPattern: m.bitPattern &- magic.bitPattern))
    return m - magic > y ? nearest &- 1 : nearest
}

/// atan2(y, x): the angle of (x, y) in radians, in [-pi, pi], error below 1e-9.
///
/// (0, 0) gives 0 and signed zeros are not distinguished (so (-1, -0) gives pi); a NaN
/// argument gives NaN; infinite arguments give NaN unless only one is infinite.
func arcTangent2(_ y: Double, _ x: Double) -> Double {
    if x == 0 && y == 0 { return 0 }
    let ax = abs(x)
    let ay = abs(y)
    let swap = ay > ax
    let lo = swap ? ax : ay
    let hi = swap ? ay : ax
    // atan(lo/hi) with lo/hi in [0, 1]; past tan(pi/8) it is pi/4 + atan((lo - hi) / (lo + hi)).
    // Either way one division: the demodulator's phase loop waits on this result.
    let shifted = lo > 0.41421356237309503 * hi
    let t = (shifted ? lo - hi : lo) / (shifted ? lo + hi : hi)
    let offset = shifted ? Double.pi / 4 : 0
    // atan t = t (1 - u/3 + u^2/5 - ... + u^10/21), u = t^2 <= tan^2(pi/8), by Estrin's
    // scheme: pairs of terms side by side instead of one chain of eleven steps.
    let u = t * t
    let u2 = u * u
    let u4 = u2 * u2
    let u8 = u4 * u4
    let p01 = 1 - u * (1.0 / 3)
    let p23 = 1.0 / 5 - u * (1.0 / 7)
    let p45 = 1.0 / 9 - u * (1.0 / 11)
    let p67 = 1.0 / 13 - u * (1.0 / 15)
    let p89 = 1.0 / 17 - u * (1.0 / 19)
    let p = (p01 + u2 * p23) + u4 * (p45 + u2 * p67) + u8 * (p89 + u2 * (1.0 / 21))
    var angle = offset + t * p
    if swap { angle = Double.pi / 2 - angle }
    if x < 0 { angle = Double.pi - angle }
    return y < 0 ? -angle : angle
}
