import RealModule

/// Decibel conversions, one set for the package: power ratios (10 log10), peak amplitudes
/// (20 log10, 1 is 0 dBFS) and back.
///
/// Zero gives -infinity, infinity gives infinity, negative or NaN input gives NaN (as log10
/// does); ``clamped(_:)`` turns the silence's -infinity into a number a report can print.
public enum Decibels {
    /// 10 log10(ratio): the level of a power ratio (a power of 0.5 is a full-scale sine's).
    public static func power(_ ratio: Double) -> Double { 10 * Double.log10(ratio) }

    /// 20 log10(|a|): the level of a peak amplitude.
    public static func amplitude(_ a: Double) -> Double { power(a * a) }

    /// The power ratio of `dB` (10^(dB/10)).
    public static func powerRatio(_ dB: Double) -> Double { Double.exp10(dB / 10) }

    /// The peak amplitude of `dB` dBFS (10^(dB/20)).
    public static func linear(_ dB: Double) -> Double { Double.exp10(dB / 20) }

    /// A level for reports: non-finite values (silence) become -200 dB.
    public static func clamped(_ dB: Double) -> Double { dB.isFinite ? max(-200, dB) : -200 }
}
