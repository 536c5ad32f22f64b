import ArgumentParser
import CommandLineText
import ModemDSP
import ModemLive
import ModemSpectrum

/// `softmodem level`: a live input meter for setting levels before decoding.
struct LevelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "level",
        abstract:
            "Live input meter: peak, peak hold and RMS in dBFS, clipping, each burst's SNR and tones, and a hint.",
        discussion: """
            On a terminal, one line refreshed in place 10 times a second, fitted to the \
            window's width; otherwise (or with -v, which shows every field) a line per second. \
            SNR is measured per burst: the profile's tone band against the noise beside it or \
            between bursts, over the whole band 0 to half the sample rate, as decode -v reports \
            it. Runs until SIGINT/SIGTERM or --duration.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var output: VerbosityOptions

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    func run() throws {
        if let duration, !(duration.isFinite && duration > 0) {
            throw CLIError.usage("--duration must be a positive number of seconds")
        }
        let profile = try modem.resolvedProfile()
        StopSignal.install()
        // In place on a terminal; elsewhere (logs, pipes) and with -v, a whole line a second.
        let inPlace = Diagnostics.stderrIsTerminal && !output.verbose
        // Only warnings: the meter's own lines say the rest.
        let notices = NoticePrinter(verbose: false)
        if inPlace { notices.beforeWarning = Diagnostics.lineReset }
        var live: LiveLevelMeter
        do {
            live = try LiveLevelMeter(profile: profile, context: audio.context(notices: notices))
        } catch {
            throw CLIError(error)
        }
        let line = LevelLine(profileName: profile.name)
        let readingsPerLine = inPlace ? 1 : 10
        var pending: String?
        func show(_ meter: LevelMeter) {
            if inPlace {
                Diagnostics.rewriteLine(line.render(meter.reading, columns: TerminalWidth.columns() ?? 80))
            } else if meter.readingCount % readingsPerLine == 0 {
                Diagnostics.write(line.render(meter.reading, columns: nil, verbose: output.verbose) + "\n")
                pending = nil
            } else {
                pending = line.render(meter.reading, columns: nil, verbose: output.verbose)
            }
        }
        do { try live.run(for: duration, reading: show) } catch { throw CLIError(error) }
        let shown = live.meter.readingCount
        // A short run still prints its latest reading.
        if inPlace && shown > 0 {
            Diagnostics.write("\n")
        } else if !inPlace, let pending {
            Diagnostics.write(pending + "\n")
        }
    }
}
