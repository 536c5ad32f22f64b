import ModemDSP

#if canImport(Glibc)
    import Glibc
#endif

/// Makes the chosen modem's transmitter once the sample rate is known (a device may grant
/// another rate than asked): built once from the options, so every check is made before
/// any file or device opens. The FSK and HiJack makers both conform; commands switch on
/// the modem once and call generic code with one of them.
protocol TransmitterMaker {
    associatedtype Transmitter: ModemTransmitter
    /// The modem's channel plan, known before any transmitter is made.
    var channelPlan: ChannelPlan { get }
    /// A transmitter at `sampleRate`; a usage error for values that cannot work there.
    func make(sampleRate: Double) throws(CLIError) -> Transmitter
    /// The `-v` description of what is sent, e.g. "softmodem-1225, 8N1".
    func describe(_ transmitter: Transmitter) -> String
}

/// FSK: a profile, a character format, a level and the burst's preamble and postamble.
struct FSKTransmitterMaker: TransmitterMaker {
    var settings: FSKSettings
    var channelPlan: ChannelPlan { FSKSettings.channelPlan }
    var amplitudeDB: Double
    var preamble: Int
    var postamble: Int

    func make(sampleRate: Double) throws(CLIError) -> BurstEncoder {
        let modulator: FSKModulator
        do {
            // What a board's receiver reads, where that is not what the board sends (at "126").
            modulator = try FSKModulator(
                profile: settings.profile.encoded, sampleRate: sampleRate, amplitude: Float(pow(10, amplitudeDB / 20)))
        } catch {
            throw CLIError(error)
        }
        return BurstEncoder(
            modulator: modulator, format: settings.format, preambleBits: preamble, postambleBits: postamble)
    }

    func describe(_ t: BurstEncoder) -> String { "\(settings.profile), \(settings.format)" }
}

/// HiJack phone -> board: the data line's bit rate, byte period and polarity, the power
/// tone, and whether the resting data line carries idle 1s (live) or silence (files).
struct HiJackTransmitterMaker: TransmitterMaker {
    var baud: Double
    var bytePeriod: Int
    var invert: Bool
    /// Data level in dBFS, or nil for a silent data line (power tone only).
    var amplitudeDB: Double?
    var preamble: Int
    var postamble: Int
    var power: PowerToneOptions
    var idleLine: Bool
    var channelPlan: ChannelPlan { HiJackSettings.channelPlan }

    func make(sampleRate: Double) throws(CLIError) -> HiJackTransmitter {
        let tone = try power.tone(sampleRate: sampleRate)
        do throws(HiJackConfigurationError) {
            let encoder = try HiJackEncoder(
                sampleRate: sampleRate, baud: baud, bytePeriod: bytePeriod,
                amplitude: amplitudeDB.map { Float(pow(10, $0 / 20)) } ?? 0, invert: invert)
            return try HiJackTransmitter(
                encoder: encoder, tone: tone, preambleBits: preamble, postambleBits: postamble, idleLine: idleLine)
        } catch {
            throw CLIError(ModemConfigurationError.hijack(error))
        }
    }

    func describe(_ t: HiJackTransmitter) -> String {
        var what =
            "power tone \(Diagnostics.number(t.tone.frequency, 0)) Hz at \(Diagnostics.number(Double(t.tone.amplitude), 2)) (right)"
        if amplitudeDB != nil {
            what =
                "hijack \(Diagnostics.number(t.encoder.baud, 3)) baud, \(t.encoder.bytePeriod) cells per byte"
                + "\(t.encoder.invert ? ", inverted" : "") (left), " + what
        }
        return what
    }
}

extension ProfileOptions {
    /// The modem to transmit with, built once from the options. Options that do not apply
    /// to the chosen modem are usage errors, all checked here.
    func transmitModem(hijack: HiJackOptions, power: PowerToneOptions) throws(CLIError) -> Modem {
        guard isHiJack else {
            if hijack.anyGiven || power.anyGiven {
                throw .usage("--byte-period, --invert, --power-tone and --power-amplitude need --profile hijack")
            }
            return .fsk(FSKSettings(profile: try resolvedProfile(), format: try frameFormat()))
        }
        try checkHiJackCompatible()
        return .hijack(
            HiJackSettings(
                sendBaud: baud ?? HiJack.hostBaud, bytePeriod: hijack.bytePeriod ?? HiJack.defaultBytePeriod,
                invert: hijack.invert))
    }
}
