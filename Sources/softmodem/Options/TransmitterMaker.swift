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
        let own = generation.powerTone(sampleRate: sampleRate)
        let tone = powerTone ?? own.frequency
        let level = Double(Float(powerAmplitude ?? own.amplitude))
        var what = "power tone \(Diagnostics.number(tone, 0)) Hz at \(Diagnostics.number(level, 2)) (right)"
        if amplitudeDB != nil {
            let framing = generation.isBitStream ? "one packet per burst" : "\(bytePeriod) cells per byte"
            what =
                "\(generation.name) \(Diagnostics.number(baud, 3)) baud, \(framing)"
                + "\(invert ? ", inverted" : "") (left), " + what
        }
        return what
    }

    /// HiJack with the power tone `options` give (full level and the rate's default tone
    /// when absent).
    init(
        baud: Double, bytePeriod: Int, invert: Bool, amplitudeDB: Double?, preamble: Int, postamble: Int,
        power: PowerToneOptions, idleLine: Bool, generation: HiJackGeneration = .gen1
    ) {
        self.init(
            baud: baud, bytePeriod: bytePeriod, invert: invert, amplitudeDB: amplitudeDB, preamble: preamble,
            postamble: postamble, powerTone: power.powerTone, powerAmplitude: power.powerAmplitude,
            idleLine: idleLine, generation: generation)
    }
}

extension ProfileOptions {
    /// The modem to transmit with, built once from the options. Options that do not apply
    /// to the chosen modem are usage errors, all checked here.
    func transmitModem(hijack: HiJackOptions, power: PowerToneOptions) throws(CLIError) -> Modem {
        guard isHiJack else {
            if hijack.anyGiven || power.anyGiven {
                throw .usage("--byte-period, --invert, --power-tone and --power-amplitude need a HiJack profile")
            }
            return .fsk(FSKSettings(profile: try resolvedProfile(), format: try frameFormat()))
        }
        try checkHiJackCompatible()
        let generation = profile.hiJackGeneration ?? .gen1
        if generation.isBitStream && hijack.bytePeriod != nil {
            throw .usage("--byte-period does not apply to --profile hijack-lab11: its packets are one bit stream")
        }
        return .hijack(
            HiJackSettings(generation: generation, sendBaud: baud, bytePeriod: hijack.bytePeriod, invert: hijack.invert)
        )
    }
}
