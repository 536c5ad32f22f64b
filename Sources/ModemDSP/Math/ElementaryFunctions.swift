// Elementary functions in pure Swift: the DSP core links no libm and imports no Foundation,
// so it builds unchanged for iOS. They run per bit, per character or at set-up (and per
// sample in the spectrum analyser's short frames), so they favour fixed-cost polynomials
// (no loops, at most one division) over the last ulp.

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

/// sin(x), absolute error below 1e-12 for |x| <= 1000; beyond, the argument reduction adds
/// about |x| * 2e-16. |x| >= 2^40 (where a double no longer resolves a useful phase),
/// infinities and NaN give NaN.
public func sine(_ x: Double) -> Double {
    guard abs(x) < 0x1p40 else { return .nan }  // also NaN, which fails the comparison
    let twoPi = 2 * Double.pi
    var r = x - twoPi * Double(roundToInt(x / twoPi))  // now in [-pi, pi]
    if r > Double.pi / 2 { r = Double.pi - r } else if r < -Double.pi / 2 { r = -Double.pi - r }
    let r2 = r * r
    // Taylor series to r^17; the first omitted term is below 1e-12 on [-pi/2, pi/2].
    var p = -1.0 / 355_687_428_096_000
    p = p * r2 + 1.0 / 1_307_674_368_000
    p = p * r2 - 1.0 / 6_227_020_800
    p = p * r2 + 1.0 / 39_916_800
    p = p * r2 - 1.0 / 362_880
    p = p * r2 + 1.0 / 5_040
    p = p * r2 - 1.0 / 120
    p = p * r2 + 1.0 / 6
    p = p * r2
    // sin r = r - r^3/6 + ... = r * (1 - p) with the signs above folded in.
    return r * (1 - p)
}

/// cos(x), as sin(x + pi/2), with the same accuracy; |x| >= 2^40, infinities and NaN give
/// NaN.
public func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }

/// atan2(y, x): the angle of (x, y) in radians, in [-pi, pi], error below 1e-9.
///
/// (0, 0) gives 0 and signed zeros are not distinguished (so (-1, -0) gives pi); a NaN
/// argument gives NaN; infinite arguments give NaN unless only one is infinite.
public func arcTangent2(_ y: Double, _ x: Double) -> Double {
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

/// Natural logarithm; about 1e-11 absolute error. Zero gives -infinity; negative, NaN or
/// infinite input gives NaN.
public func naturalLog(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    let e = Double(x.exponent)
    let m = x.significand
    let y = (m - 1) / (m + 1)
    // ln m = 2 atanh(y), y = (m-1)/(m+1) in [0, 1/3): ten terms leave an error below 1e-11.
    let y2 = y * y
    var p = 1.0 / 19
    p = p * y2 + 1.0 / 17
    p = p * y2 + 1.0 / 15
    p = p * y2 + 1.0 / 13
    p = p * y2 + 1.0 / 11
    p = p * y2 + 1.0 / 9
    p = p * y2 + 1.0 / 7
    p = p * y2 + 1.0 / 5
    p = p * y2 + 1.0 / 3
    p = p * y2 + 1
    return 2 * y * p + e * 0.6931471805599453
}

/// 10 * log10(x), for reporting power levels. Zero gives -infinity; negative, NaN or
/// infinite input gives NaN.
public func decibels(power x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    return 10 * naturalLog(x) / 2.302585092994046
}

/// e^x; underflows to 0 below -745 and overflows to infinity above 709. (Also what the
/// board models and the loopback analysis use: one exponential in the package.)
@inlinable
public func exponential(_ x: Double) -> Double {
    guard !x.isNaN else { return .nan }
    if x > 709 { return .infinity }
    if x < -745 { return 0 }
    // x = k ln2 + r with |r| <= ln2/2, e^x = 2^k e^r.
    let ln2 = 0.6931471805599453
    let k = (x / ln2).rounded()
    let r = x - k * ln2
    var term = 1.0
    var sum = 1.0
    var n = 1.0
    while n < 20 {
        term *= r / n
        sum += term
        n += 1
    }
    return sum * Double(sign: .plus, exponent: Int(k), significand: 1)
}
