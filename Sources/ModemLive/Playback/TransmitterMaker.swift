public import ModemDSP

#if canImport(Glibc)
    import Glibc
#endif

/// Makes a modem's transmitter once the sample rate is known (a device may grant another
/// rate than asked): built once from settings, so every check is made before any file or
/// device opens. The FSK and HiJack makers both conform; callers switch on the modem once
/// and call generic code with one of them.
public protocol TransmitterMaker {
    /// The transmitter made (the burst encoder for FSK, the HiJack transmitter).
    associatedtype Transmitter: ModemTransmitter
    /// The modem's channel plan, known before any transmitter is made.
    var channelPlan: ChannelPlan { get }
    /// A transmitter at `sampleRate`; throws for settings that cannot work there.
    func make(sampleRate: Double) throws(TransmitterSetupError) -> Transmitter
}

/// FSK: a profile, a character format, a level and the burst's preamble and postamble.
public struct FSKTransmitterMaker: TransmitterMaker {
    /// The FSK profile and character format to send with.
    public var settings: FSKSettings
    /// Mono: FSK sends one channel.
    public var channelPlan: ChannelPlan { FSKSettings.channelPlan }
    /// Peak level in dBFS.
    public var amplitudeDB: Double
    /// Mark bits before the first character and after the last.
    public var preamble: Int
    /// Mark bits after the last character, closing the burst.
    public var postamble: Int

    /// Keeps the settings as given; nothing is checked until ``make(sampleRate:)``.
    public init(settings: FSKSettings, amplitudeDB: Double, preamble: Int, postamble: Int) {
        self.settings = settings
        self.amplitudeDB = amplitudeDB
        self.preamble = preamble
        self.postamble = postamble
    }

    /// An FSK burst encoder at `sampleRate`; throws ``TransmitterSetupError/modem(_:)`` when the
    /// profile cannot work at that rate.
    public func make(sampleRate: Double) throws(TransmitterSetupError) -> BurstEncoder {
        let modulator: FSKModulator
        do {
            // What a board's receiver reads, where that is not what the board sends (at "126").
            modulator = try FSKModulator(
                profile: settings.profile.encoded, sampleRate: sampleRate,
                amplitude: Float(Decibels.linear(amplitudeDB)))
        } catch {
            throw .modem(error)
        }
        return BurstEncoder(
            modulator: modulator, format: settings.format, preambleBits: preamble, postambleBits: postamble)
    }
}

/// HiJack phone -> board: the data line's bit rate, byte period and polarity, the power
/// tone, and whether the resting data line carries idle 1s (live) or silence (files).
public struct HiJackTransmitterMaker: TransmitterMaker {
    /// Which HiJack protocol to send (line code, framing, power tone).
    public var generation: HiJackGeneration
    /// The data line's bit rate (the board accepts about 1000-1900 baud).
    public var baud: Double
    /// Bit cells from one start bit to the next (at least 14).
    public var bytePeriod: Int
    /// Flips the data signal, for audio paths that invert it.
    public var invert: Bool
    /// Data level in dBFS, or nil for a silent data line (power tone only).
    public var amplitudeDB: Double?
    /// Idle 1s before a burst's first byte (never fewer than the 4 the board needs).
    public var preamble: Int
    /// Idle 1s after a burst's last byte.
    public var postamble: Int
    /// The power tone's frequency (nil: the generation's, ``HiJackGeneration/powerTone(sampleRate:)``).
    public var powerTone: Double?
    /// The power tone's peak, 0...1 of full scale (0 turns it off; nil: the generation's).
    public var powerAmplitude: Double?
    /// True: the resting data line carries idle 1s (live); false: it is silent (files).
    public var idleLine: Bool
    /// Stereo: the data line left, the board's power tone right.
    public var channelPlan: ChannelPlan { HiJackSettings.channelPlan }

    /// Keeps the settings as given; nothing is checked until ``make(sampleRate:)``.
    public init(
        baud: Double, bytePeriod: Int, invert: Bool, amplitudeDB: Double?, preamble: Int, postamble: Int,
        powerTone: Double?, powerAmplitude: Double?, idleLine: Bool, generation: HiJackGeneration = .gen1
    ) {
        self.generation = generation
        self.baud = baud
        self.bytePeriod = bytePeriod
        self.invert = invert
        self.amplitudeDB = amplitudeDB
        self.preamble = preamble
        self.postamble = postamble
        self.powerTone = powerTone
        self.powerAmplitude = powerAmplitude
        self.idleLine = idleLine
    }

    /// The power tone at `sampleRate`.
    public func tone(sampleRate: Double) throws(TransmitterSetupError) -> HiJackPowerTone {
        let own = generation.powerTone(sampleRate: sampleRate)
        let amplitude = powerAmplitude ?? own.amplitude
        guard amplitude.isFinite, (0...1).contains(amplitude) else {
            throw .powerAmplitude(amplitude)
        }
        let frequency = powerTone ?? own.frequency
        do {
            return try HiJackPowerTone(frequency: frequency, sampleRate: sampleRate, amplitude: Float(amplitude))
        } catch {
            throw .powerTone(error)
        }
    }

    /// A HiJack transmitter at `sampleRate`; throws for a power tone or data line that cannot work there.
    public func make(sampleRate: Double) throws(TransmitterSetupError) -> HiJackTransmitter {
        let tone = try tone(sampleRate: sampleRate)
        do throws(HiJackConfigurationError) {
            let encoder = try HiJackEncoder(
                sampleRate: sampleRate, baud: baud, bytePeriod: bytePeriod,
                amplitude: amplitudeDB.map { Float(Decibels.linear($0)) } ?? 0, invert: invert, generation: generation)
            return try HiJackTransmitter(
                encoder: encoder, tone: tone, preambleBits: preamble, postambleBits: postamble, idleLine: idleLine)
        } catch {
            throw .modem(.hijack(error))
        }
    }
}
