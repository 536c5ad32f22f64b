import ModemDSP

/// One tone found in a spectrum.
public struct ToneMeasurement: Sendable, Equatable {
    /// Frequency in Hz, interpolated between FFT bins.
    public var frequency: Double
    /// Mean power of the tone while the analyzer listened (linear; a full-scale sine present
    /// all the time is 0.5). For an FSK burst each tone is on about half the time, so each
    /// reads about 3 dB under the burst's level.
    public var power: Double

    /// Peak level of a sine of that power, in dBFS.
    public var levelDBFS: Double { power > 0 ? Decibels.power(power * 2) : -.infinity }
}
