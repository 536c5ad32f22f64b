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
