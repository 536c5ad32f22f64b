import ArgumentParser
import ModemDSP

/// Modem profile and character format, shared by every command that modulates or
/// demodulates.
struct ProfileOptions: ParsableArguments {
    @Option(
        name: .customLong("profile"),
        help: ArgumentHelp(
            "Modem profile (default: softmodem-1225; decode: auto, unless --baud, --mark, --space or a format option pins one).",
            valueName: "name"))
    var profileOption: ProfileName?

    /// The named profile, or softmodem-1225 when none is named.
    var profile: ProfileName { profileOption ?? ProfileName(.softmodem1225) }

    /// Whether an option pins what auto-detection would find (bit rate, tones, format).
    var pinsModem: Bool {
        baud != nil || mark != nil || space != nil || dataBits != 8 || parity != .none || stopBits != 1
    }

    var isHiJack: Bool { profile.isHiJack }

    /// With `--profile hijack`, the FSK-only options are usage errors.
    func checkHiJackCompatible() throws(CLIError) {
        if mark != nil || space != nil {
            throw .usage("--mark and --space do not apply to --profile \(profile.name) (Manchester)")
        }
        if dataBits != 8 || parity != .none || stopBits != 1 {
            throw .usage(
                "--data-bits, --parity and --stop-bits do not apply to --profile \(profile.name) (its framing is fixed)"
            )
        }
    }

    @Option(name: .long, help: ArgumentHelp("Override the profile's bit rate.", valueName: "baud"))
    var baud: Double?

    @Option(name: .long, help: ArgumentHelp("Override the mark (1) tone in Hz.", valueName: "hz"))
    var mark: Double?

    @Option(name: .long, help: ArgumentHelp("Override the space (0) tone in Hz.", valueName: "hz"))
    var space: Double?

    @Option(name: .long, help: ArgumentHelp("Data bits per character (5-8).", valueName: "n"))
    var dataBits = 8

    @Option(name: .long, help: ArgumentHelp("Parity.", valueName: "parity"))
    var parity = Parity.none

    @Option(name: .long, help: ArgumentHelp("Stop bits (1 or 2).", valueName: "n"))
    var stopBits = 1

    /// The profile with overrides applied; a usage error for an unknown name.
    func resolvedProfile() throws(CLIError) -> ModemProfile {
        if profile.isAuto { throw .usage("--profile auto finds the modem when receiving; name a profile here") }
        guard let base = ModemProfile.named(profile.name) else {
            throw CLIError(ModemConfigurationError.unknownProfile(profile.name))
        }
        let resolved = base.overriding(baud: baud, mark: mark, space: space)
        // Check what does not depend on the sample rate now, before any file is opened;
        // the Nyquist limit is checked again against each input's real rate.
        do {
            try resolved.validate(sampleRate: ModemProfile.sampleRateRange.upperBound)
        } catch {
            throw CLIError(error)
        }
        return resolved
    }

    func frameFormat() throws(CLIError) -> FrameFormat {
        do {
            return try FrameFormat(dataBits: dataBits, parity: parity, stopBits: stopBits)
        } catch {
            throw CLIError(error)
        }
    }
}

/// `-v`: detail on stderr.
struct VerbosityOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Report details on stderr (file format, each burst); -vv adds every character.")
    var verbosity: Int

    var verbose: Bool { verbosity > 0 }
    var traceCharacters: Bool { verbosity > 1 }
}

extension ProfileOptions {
    /// The modem to receive with, built once from the options. Options that do not apply
    /// to the chosen modem are usage errors, all checked here.
    ///
    /// - Parameters:
    ///   - squelch: `--squelch` (FSK only; HiJack's comparator has no squelch).
    ///   - hiJackBaud: whether `--baud` may move a HiJack receiver's nominal rate (live
    ///     commands, which may listen to a phone -> board signal); `decode` tracks 1300-1700
    ///     baud by itself and refuses it.
    ///   - autoByDefault: with no `--profile`, detect the modem (`decode`) unless an option
    ///     pins it (`pinnedElsewhere`: a command's own, such as `--squelch`, `--no-adapt`).
    func receiveModem(
        squelch: Double, hiJackBaud: Bool, autoByDefault: Bool = false,
        pinnedElsewhere: Bool = false
    ) throws(CLIError) -> Modem {
        let squelched = squelch != DemodulatorConfiguration.defaultSquelch
        if profileOption == nil && autoByDefault && !pinsModem && !pinnedElsewhere && !squelched {
            return .auto(AutoSettings())
        }
        if profile.isAuto {
            if pinsModem {
                throw .usage("--profile auto finds tones, bit rate and format itself; name a profile to pin them")
            }
            if squelched { throw .usage("--squelch does not apply to --profile auto") }
            return .auto(AutoSettings())
        }
        guard isHiJack else {
            return .fsk(FSKSettings(profile: try resolvedProfile(), format: try frameFormat(), squelch: squelch))
        }
        try checkHiJackCompatible()
        if squelch != DemodulatorConfiguration.defaultSquelch {
            throw .usage("--squelch does not apply to --profile \(profile.name)")
        }
        if baud != nil && !hiJackBaud {
            let range = (profile.hiJackGeneration ?? .gen1) == .gen1 ? "1300-1700" : "the board's"
            throw .usage(
                "--baud does not apply to decode --profile \(profile.name): the decoder tracks \(range) baud by itself")
        }
        let settings = HiJackSettings(generation: profile.hiJackGeneration ?? .gen1, receiveBaud: baud)
        // A bit rate no decoder accepts is a usage error before any file or device opens.
        do {
            _ = try settings.makeReceiver(sampleRate: 44_100)
        } catch {
            throw CLIError(error)
        }
        return .hijack(settings)
    }
}
