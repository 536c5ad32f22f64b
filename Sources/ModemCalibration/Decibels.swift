import ModemDSP

/// Decibel conversions for peak amplitudes (20 log10) and linear gains, in pure Swift.
enum Decibels {
    /// 20 log10(a): a peak amplitude of 1 is 0 dBFS. Zero gives -infinity.
    static func amplitude(_ a: Double) -> Double { decibels(power: a * a) }

    /// The peak amplitude of `dB` dBFS.
    static func linear(_ dB: Double) -> Double { exponential(dB / 20 * 2.302585092994046) }

    /// A level for reports: non-finite values (silence) become -200 dB.
    static func clamped(_ dB: Double) -> Double { dB.isFinite ? max(-200, dB) : -200 }
}
