import BoardModels
public import ModemDSP

/// The modems `bench speed` measures and the test signals it decodes: traffic from the
/// shared ``TrafficGenerator`` (bursts of 256 seeded random bytes, 0.1 s of rest before
/// each), with white noise at a full-band SNR from ``WhiteNoiseChannel`` for the noisy case.
public enum SpeedSignals {
    /// Peak level of every signal: low enough that the noise at 0 dB SNR does not clip the
    /// 16-bit file minimodem reads.
    public static let amplitude: Float = 0.25

    /// Every built-in FSK profile, then HiJack (its decoder at the board's bit rate).
    public static let modems: [Modem] =
        ModemProfile.builtIn.map { .fsk(FSKSettings(profile: $0)) } + [.hijack(HiJackSettings())]

    /// The seed of modem number `index`'s bytes (decoded and encoded alike).
    public static func byteSeed(_ seed: UInt64, index: Int) -> UInt64 { seed &+ UInt64(index) }

    /// The seed of the noise added to modem number `index`'s signal.
    public static func noiseSeed(_ seed: UInt64, index: Int) -> UInt64 { seed &* 1_000_003 &+ UInt64(index) }

    /// FSK as the SoftModem apps send it: 50 mark bits before a burst, 7 after.
    public static func transmitter(_ settings: FSKSettings, sampleRate: Double) throws(BenchError) -> BurstEncoder {
        do {
            let modulator = try FSKModulator(profile: settings.profile, sampleRate: sampleRate, amplitude: amplitude)
            return BurstEncoder(modulator: modulator, format: settings.format)
        } catch {
            throw .configuration(error, context: nil)
        }
    }

    /// HiJack as the board sends it: its bit rate, each byte's 10 cells followed by the 4
    /// idle cells it needs, the data on the left channel (the power tone on the right is
    /// left out of the decoded signal).
    public static func transmitter(_ settings: HiJackSettings, sampleRate: Double) throws(BenchError)
        -> HiJackTransmitter
    {
        do throws(HiJackConfigurationError) {
            let encoder = try HiJackEncoder(
                sampleRate: sampleRate, baud: settings.receiveBaud,
                bytePeriod: HiJack.frameBits + HiJack.minimumIdleBits, amplitude: amplitude)
            let tone = try HiJackPowerTone(
                frequency: HiJack.defaultPowerTone(sampleRate: sampleRate), sampleRate: sampleRate)
            return try HiJackTransmitter(encoder: encoder, tone: tone)
        } catch {
            throw .configuration(.hijack(error), context: nil)
        }
    }

    /// `frames` samples of traffic on the data channel, and the bytes sent; with `snr`, white
    /// noise at that SNR against the bursts' mean power.
    public static func signal<Transmitter: ModemTransmitter>(
        _ transmitter: Transmitter, frames: Int, snr: Double?,
        byteSeed: UInt64, noiseSeed: UInt64
    ) -> (samples: [Float], bytes: Int) {
        var generator = TrafficGenerator(transmitter: transmitter, seed: byteSeed)
        let traffic = generator.signal(frames: frames)
        var samples = traffic.samples
        if let snr {
            var channel = WhiteNoiseChannel(signalPower: traffic.burstPower, snr: snr, seed: noiseSeed)
            channel.process(&samples)
        }
        return (samples, traffic.bytes.count)
    }
}
