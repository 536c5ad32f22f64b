import ModemDSP
import ModemTestSupport

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

    /// `seconds` of SoftModem traffic: bursts of random bytes (preamble, characters back to
    /// back, postamble) separated by short silences, padded with silence to the exact
    /// length. With `snr` set, white Gaussian noise is added for that full-band SNR in dB,
    /// measured against the mean power of the bursts.
    static func traffic(profile: ModemProfile, rate: Double, seconds: Double, snr: Double? = nil,
                        seed: UInt64 = 1) throws -> Capture {
        let total = Int(seconds * rate)
        let modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: 0.9)
        var encoder = BurstEncoder(modulator: modulator)
        var generator = SeededGenerator(seed: seed)
        let gapSamples = Int(gap * rate)
        var samples = [Float](repeating: 0, count: total + encoder.maxSamples(forBytes: burstBytes) + encoder.maxSamplesForFinish)
        var bytes: [UInt8] = []
        var n = gapSamples
        var signalEnergy = 0.0, signalSamples = 0
        while true {
            // The last burst is cut short to fit, so short (smoke) signals carry data too.
            var count = burstBytes
            while count > 0 && n + encoder.maxSamples(forBytes: count) + encoder.maxSamplesForFinish > total { count -= 1 }
            if count == 0 { break }
            var burst = [UInt8](repeating: 0, count: count)
            for i in burst.indices { burst[i] = UInt8(truncatingIfNeeded: generator.next()) }
            bytes += burst
            let start = n
            samples.withUnsafeMutableBufferPointer { out in
                n += burst.withUnsafeBufferPointer { encoder.encode($0, into: out.baseAddress! + n) }
                n += encoder.finishBurst(into: out.baseAddress! + n)
            }
            for i in start..<n { signalEnergy += Double(samples[i]) * Double(samples[i]) }
            signalSamples += n - start
            n += gapSamples
        }
        samples.removeLast(samples.count - total)
        if let snr {
            let power = signalEnergy / Double(max(1, signalSamples))
            TestSignals.addNoise(&samples, snr: snr, signalPower: power, seed: seed &+ 1)
        }
        return Capture(samples: samples, sampleRate: rate, profile: profile, bytes: bytes)
    }
}
