/// One tone found in a spectrum.
public struct ToneMeasurement: Sendable, Equatable {
    /// Frequency in Hz, interpolated between FFT bins.
    public var frequency: Double
    /// Mean power of the tone while the analyzer listened (linear; a full-scale sine present
    /// all the time is 0.5). For an FSK burst each tone is on about half the time, so each
    /// reads about 3 dB under the burst's level.
    public var power: Double

    /// Peak level of a sine of that power, in dBFS.
    public var levelDBFS: Double { power > 0 ? 10 * log10Approx(power * 2) : -.infinity }
}

/// log10 without Foundation (levels are reported, not used per sample).
func log10Approx(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    let e = Double(x.exponent)
    let m = x.significand
    let y = (m - 1) / (m + 1)
    let y2 = y * y
    var term = y
    var sum = y
    var k = 1.0
    while abs(term) > 1e-17 {
        term *= y2
        sum += term / (2 * k + 1)
        k += 1
    }
    return (2 * sum + e * 0.6931471805599453) / 2.302585092994046
}
