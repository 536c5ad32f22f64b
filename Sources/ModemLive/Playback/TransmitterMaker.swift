public import ModemDSP

#if canImport(Glibc)
    import Glibc
#endif

/// Makes a modem's transmitter once the sample rate is known (a device may grant another
/// rate than asked): built once from settings, so every check is made before any file or
/// device opens. The FSK and HiJack makers both conform; callers switch on the modem once
/// and call generic code with one of them.
public protocol TransmitterMaker {
    associatedtype Transmitter: ModemTransmitter
    /// The modem's channel plan, known before any transmitter is made.
    var channelPlan: ChannelPlan { get }
    /// A transmitter at `sampleRate`; throws for settings that cannot work there.
    func make(sampleRate: Double) throws(TransmitterSetupError) -> Transmitter
}

/// FSK: a profile, a character format, a level and the burst's preamble and postamble.
public struct FSKTransmitterMaker: TransmitterMaker {
    public var settings: FSKSettings
    public var channelPlan: ChannelPlan { FSKSettings.channelPlan }
    /// Peak level in dBFS.
    public var amplitudeDB: Double
    /// Mark bits before the first character and after the last.
    public var preamble: Int
    public var postamble: Int

    public init(settings: FSKSettings, amplitudeDB: Double, preamble: Int, postamble: Int) {
        self.settings = settings
        self.amplitudeDB = amplitudeDB
        self.preamble = preamble
        self.postamble = postamble
    }

    public func make(sampleRate: Double) throws(TransmitterSetupError) -> BurstEncoder {
        let modulator: FSKModulator
        do {
            // What a board's receiver reads, where that is not what the board sends (at "126").
            modulator = try FSKModulator(
                profile: settings.profile.encoded, sampleRate: sampleRate, amplitude: Float(pow(10, amplitudeDB / 20)))
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
    public var baud: Double
    public var bytePeriod: Int
    public var invert: Bool
    /// Data level in dBFS, or nil for a silent data line (power tone only).
    public var amplitudeDB: Double?
    public var preamble: Int
    public var postamble: Int
    /// The power tone's frequency (nil: ``HiJack/defaultPowerTone(sampleRate:)``).
    public var powerTone: Double?
    /// The power tone's peak, 0...1 of full scale (0 turns it off).
    public var powerAmplitude: Double
    public var idleLine: Bool
    public var channelPlan: ChannelPlan { HiJackSettings.channelPlan }

    public init(
        baud: Double, bytePeriod: Int, invert: Bool, amplitudeDB: Double?, preamble: Int, postamble: Int,
        powerTone: Double?, powerAmplitude: Double, idleLine: Bool
    ) {
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
        guard powerAmplitude.isFinite, (0...1).contains(powerAmplitude) else {
            throw .powerAmplitude(powerAmplitude)
        }
        let frequency = powerTone ?? HiJack.defaultPowerTone(sampleRate: sampleRate)
        do {
            return try HiJackPowerTone(frequency: frequency, sampleRate: sampleRate, amplitude: Float(powerAmplitude))
        } catch {
            throw .powerTone(error)
        }
    }

    public func make(sampleRate: Double) throws(TransmitterSetupError) -> HiJackTransmitter {
        let tone = try tone(sampleRate: sampleRate)
        do throws(HiJackConfigurationError) {
            let encoder = try HiJackEncoder(
                sampleRate: sampleRate, baud: baud, bytePeriod: bytePeriod,
                amplitude: amplitudeDB.map { Float(pow(10, $0 / 20)) } ?? 0, invert: invert)
            return try HiJackTransmitter(
                encoder: encoder, tone: tone, preambleBits: preamble, postambleBits: postamble, idleLine: idleLine)
        } catch {
            throw .modem(.hijack(error))
        }
    }
}
