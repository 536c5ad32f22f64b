import ModemDSP
import ModemLive

/// The `-v` description of what a transmitter sends, at the rate the device granted.
protocol DescribedMaker: TransmitterMaker {
    /// E.g. "softmodem-1225, 8N1".
    func describe(sampleRate: Double) -> String
}

extension FSKTransmitterMaker: DescribedMaker {
    func describe(sampleRate: Double) -> String { "\(settings.profile), \(settings.format)" }
}

extension HiJackTransmitterMaker: DescribedMaker {
    func describe(sampleRate: Double) -> String {
        let tone = powerTone ?? HiJack.defaultPowerTone(sampleRate: sampleRate)
        var what =
            "power tone \(Diagnostics.number(tone, 0)) Hz at \(Diagnostics.number(Double(Float(powerAmplitude)), 2)) (right)"
        if amplitudeDB != nil {
            what =
                "hijack \(Diagnostics.number(baud, 3)) baud, \(bytePeriod) cells per byte"
                + "\(invert ? ", inverted" : "") (left), " + what
        }
        return what
    }

    /// HiJack with the power tone `options` give (full level and the rate's default tone
    /// when absent).
    init(
        baud: Double, bytePeriod: Int, invert: Bool, amplitudeDB: Double?, preamble: Int, postamble: Int,
        power: PowerToneOptions, idleLine: Bool
    ) {
        self.init(
            baud: baud, bytePeriod: bytePeriod, invert: invert, amplitudeDB: amplitudeDB, preamble: preamble,
            postamble: postamble, powerTone: power.powerTone, powerAmplitude: power.powerAmplitude ?? 1,
            idleLine: idleLine)
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
