// Pure-Swift elementary functions for the models (the module imports no C library and no
// Foundation). Accurate to about 1e-15; fast enough to call once per sample in tests.

/// sin(x) for any finite x; NaN or infinite input gives NaN.
@inlinable
public func modelSine(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    var r = x - (x / (2 * Double.pi)).rounded() * (2 * Double.pi)
    // Reduce to [-pi/2, pi/2] where the series converges fast.
    if r > Double.pi / 2 { r = Double.pi - r } else if r < -Double.pi / 2 { r = -Double.pi - r }
    let r2 = r * r
    // Taylor series to x^23: error below 1e-16 on [-pi/2, pi/2].
    var term = r
    var sum = r
    var k = 1.0
    while k < 12 {
        term *= -r2 / ((2 * k) * (2 * k + 1))
        sum += term
        k += 1
    }
    return sum
}

/// cos(x) for any finite x.
@inlinable
public func modelCosine(_ x: Double) -> Double { modelSine(x + Double.pi / 2) }

/// e^x; underflows to 0 below -745 and overflows to infinity above 709.
@inlinable
public func modelExp(_ x: Double) -> Double {
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
