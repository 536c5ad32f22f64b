import BoardModels
import ModemDSP

/// A generated benchmark input, built once in setup and shared by every iteration.
final class Capture: Sendable {
    let samples: [Float]
    let sampleRate: Double
    let profile: ModemProfile
    /// The bytes encoded into `samples`, in order.
    let bytes: [UInt8]

    init(samples: [Float], sampleRate: Double, profile: ModemProfile, bytes: [UInt8]) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.profile = profile
        self.bytes = bytes
    }

    var seconds: Double { Double(samples.count) / sampleRate }
}

enum Signals {
    /// Bytes per burst: SoftModem sketches and the phone apps send short bursts.
    static let burstBytes = 256
    /// Silence between bursts, seconds.
    static let gap = 0.1

    /// `seconds` of SoftModem traffic from the shared ``TrafficGenerator`` (the one
    /// `softmodem bench speed` uses): bursts of random bytes (preamble, characters back to
    /// back, postamble) after short silences, the last burst cut short to fit, padded with
    /// silence to the exact length. With `snr` set, white Gaussian noise is added for that
    /// full-band SNR in dB, measured against the mean power of the bursts.
    static func traffic(
        profile: ModemProfile, rate: Double, seconds: Double, snr: Double? = nil,
        seed: UInt64 = 1
    ) throws -> Capture {
        let modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: 0.9)
        var generator = TrafficGenerator(
            transmitter: BurstEncoder(modulator: modulator), burstBytes: burstBytes,
            gapSeconds: gap, seed: seed)
        let traffic = generator.signal(frames: Int(seconds * rate))
        var samples = traffic.samples
        if let snr { TestSignals.addNoise(&samples, snr: snr, signalPower: traffic.burstPower, seed: seed &+ 1) }
        return Capture(samples: samples, sampleRate: rate, profile: profile, bytes: traffic.bytes)
    }
}
