import ModemDSP

/// Adds white Gaussian noise at a full-band SNR (PROTOCOLS.md section 4): noise power over
/// the whole band 0...fs/2 equals the signal power divided by 10^(SNR/10).
///
/// The signal power is given, not measured, so silence between bursts gets the same noise
/// as the bursts (a real noise floor) and the SNR is exact whatever the burst pattern.
/// Seeded, so runs repeat; streaming.
public struct WhiteNoiseChannel: Sendable {
    private var noise: GaussianNoise

    /// Noise with standard deviation `standardDeviation` (full-scale units).
    public init(standardDeviation: Double, seed: UInt64) {
        noise = GaussianNoise(standardDeviation: max(0, standardDeviation), seed: seed)
    }

    /// Noise for a signal of mean power `signalPower` at `snr` dB (a sine of peak A has
    /// power A^2/2).
    public init(signalPower: Double, snr: Double, seed: UInt64) {
        self.init(standardDeviation: Self.standardDeviation(signalPower: signalPower, snr: snr), seed: seed)
    }

    /// Noise whose level is `dBFS` relative to a full-scale sine (power 0.5): -75 dBFS is a
    /// noise power of 0.5 * 10^-7.5.
    public init(levelDBFS: Double, seed: UInt64) {
        self.init(standardDeviation: (0.5 * Decibels.powerRatio(levelDBFS)).squareRoot(), seed: seed)
    }

    /// sqrt(signalPower / 10^(snr/10)).
    public static func standardDeviation(signalPower: Double, snr: Double) -> Double {
        (max(0, signalPower) / Decibels.powerRatio(snr)).squareRoot()
    }

    /// Adds noise to `samples`.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        noise.add(to: samples)
    }

    /// Adds noise to a whole array in place.
    public mutating func process(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }
}
