import ArgumentParser
import ModemAudioIO
import ModemDSP
import ModemLive

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem power`: the HiJack power tone alone, to power a board.
///
/// Stereo: left silent (the data line stays quiet), right = the tone. Without `-o` it plays
/// live on `--device` until SIGINT/SIGTERM or `--duration`, then drains and exits 0; with
/// `-o` it writes a WAV file or stream instead.
struct PowerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power",
        abstract: "Play the HiJack power tone (right channel) on a sound device, or write it to a file or stdout.",
        discussion: """
            The board harvests its power from this tone; play it with the volume at maximum, \
            preferably on a hardware device (hw:) at 48 or 96 kHz. Without -o it plays on \
            --device until SIGINT/SIGTERM or --duration. Without --duration, '-o -' streams \
            until the reader closes the pipe.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Which HiJack the board speaks, for its power tone's default frequency and level.", valueName: "name"))
    var profile = HiJackGeneration.gen1

    @OptionGroup var power: PowerToneOptions
    @OptionGroup var verbosity: VerbosityOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "ALSA device for live playback (without -o): default, pulse, hw:CARD,DEV, plughw:CARD,DEV.",
            valueName: "name"))
    var device = "default"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Device buffer in milliseconds for live playback, 4-2000 (default 40; 100 through PipeWire).",
            valueName: "ms"))
    var latency: Double?

    @Option(name: .long, help: ArgumentHelp("Sample rate in Hz (8000-192000).", valueName: "hz"))
    var rate: Double = 48_000

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Length in seconds (needed for files; stdout streams forever without it).", valueName: "seconds"))
    var duration: Double?

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or - for stdout.", valueName: "file"))
    var output: String?

    @Flag(name: .long, help: "Write 32-bit float WAV instead of 16-bit PCM.")
    var float = false

    func run() throws {
        guard rate.isFinite, rate == rate.rounded(), (8_000...192_000).contains(rate) else {
            throw CLIError.usage("--rate must be a whole number of hertz in 8000-192000")
        }
        var tone = try power.tone(sampleRate: rate, generation: profile)
        if let duration {
            guard duration.isFinite, duration > 0, duration <= 24 * 3600 else {
                throw CLIError.usage("--duration must be above 0 and at most 86400 seconds")
            }
        }
        guard let destination = output else { return try playLive() }
        if destination != "-" && duration == nil {
            throw CLIError.usage("writing a file needs --duration")
        }
        if destination == "-" && Diagnostics.stdoutIsTerminal {
            throw CLIError.usage("refusing to write audio to a terminal; use -o FILE or a pipe")
        }
        var sink = try AudioSink(path: destination, sampleRate: Int(rate), layout: .both, float: float)
        if verbosity.verbose {
            Diagnostics.info(
                "power tone \(Diagnostics.number(tone.frequency, 0)) Hz at \(Diagnostics.number(Double(tone.amplitude), 2)) of full scale, \(Int(rate)) Hz stereo (right channel) -> \(destination == "-" ? "stdout" : destination)"
            )
        }
        try sink.writePowerTone(&tone, frames: duration.map { Int64(($0 * rate).rounded()) })
        try sink.finish()
    }

    /// Plays the tone on `--device` until a stop signal or `--duration`, then drains.
    private func playLive() throws {
        if let problem = LiveAudioOptions.latencyProblem(latency) { throw CLIError.usage(problem) }
        var audio = LiveAudioOptions()
        audio.device = device
        audio.rate = Int(rate)
        audio.latency = latency
        StopSignal.install()
        // A silent data line: the HiJack transmitter's resting line is then the tone alone.
        let maker = HiJackTransmitterMaker(
            baud: HiJack.hostBaud, bytePeriod: HiJack.defaultBytePeriod, invert: false, amplitudeDB: nil,
            preamble: 0, postamble: 0, power: power, idleLine: false, generation: profile)
        let notices = NoticePrinter(verbose: verbosity.verbose)
        notices.describeTransmitter = maker.describe(sampleRate:)
        var player: LiveTransmitter<HiJackTransmitter>
        do {
            player = try LiveTransmitter(maker, context: audio.context(notices: notices), keepOpen: true)
            player.start()
            try player.playResting(frames: duration.map { Int64(($0 * Double(player.sampleRate)).rounded()) })
            try player.finish()
        } catch {
            throw CLIError(error)
        }
        if verbosity.verbose {
            Diagnostics.info(
                "power: \(player.playback.playedFrames) frames played, \(player.playback.underruns) underruns recovered"
                    + (StopSignal.isRequested ? " (interrupted)" : ""))
        }
    }
}
