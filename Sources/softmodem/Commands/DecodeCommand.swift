import ArgumentParser
import CommandLineText
import ModemAudioIO
import ModemDSP
import ModemDecoding

/// `softmodem decode`: recordings in, bytes out.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode modem audio from files or stdin; decoded bytes go to stdout.",
        discussion: """
            Reads any format libsndfile knows (WAV, AIFF, CAF, FLAC, OGG, ...) or headerless \
            PCM with --raw. Needs no preamble and no level setting. With no --profile it \
            detects each burst's modem (tones, bit rate, which tone is mark, character format); \
            a named profile or --baud/--mark/--space pins it. With -v each burst is \
            reported on stderr: start time, level, SNR, measured tones, byte count, framing errors.

            When nothing decodes, or a named profile does not match the signal (its bytes are \
            then not printed), one line on stderr says what the input holds, and the exit \
            status is 1.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup(title: "Byte protocol") var messages: ProtocolOptions

    @Argument(help: ArgumentHelp("Audio files; - (or nothing) reads stdin.", valueName: "file"))
    var files: [String] = []

    @Flag(name: .long, help: "Input is headerless PCM (give --rate, --format, --channels).")
    var raw = false

    @Option(name: .long, help: ArgumentHelp("Sample rate of --raw input, Hz.", valueName: "hz"))
    var rate: Double?

    @Option(name: .long, help: ArgumentHelp("Sample format of --raw input.", valueName: "format"))
    var format = RawSampleFormat.s16le

    @Option(name: .long, help: ArgumentHelp("Channel count of --raw input.", valueName: "n"))
    var channels = 1

    @Option(
        name: .long,
        help: ArgumentHelp("Decode this channel (1 = left); default: the one carrying the signal.", valueName: "n"))
    var channel: Int?

    @Flag(name: .long, help: "Keep the profile's tones instead of retuning to a sender's measured ones between bursts.")
    var noAdapt = false

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Minimum Eb/N0 in dB for a character to count (default \(Int(DemodulatorConfiguration.defaultSquelch))). Lower finds weaker signals and more false bytes.",
            valueName: "db"))
    var squelch = DemodulatorConfiguration.defaultSquelch

    func validate() throws {
        if let channel, channel < 1 { throw CLIError.usage("--channel counts from 1, not \(channel)") }
        if !raw && rate != nil {
            throw CLIError.usage("--rate applies to --raw input only (files carry their own rate)")
        }
        guard squelch.isFinite, (-20...60).contains(squelch) else {
            throw CLIError.usage("--squelch must be between -20 and 60 dB")
        }
    }

    func run() throws {
        let modem = try self.modem.receiveModem(
            squelch: squelch, hiJackBaud: false, autoByDefault: true, pinnedElsewhere: noAdapt)
        if case .hijack = modem, noAdapt { throw CLIError.usage("--no-adapt does not apply to --profile hijack") }
        if case .auto = modem, noAdapt {
            throw CLIError.usage("--no-adapt does not apply to --profile auto (it finds each burst's tones)")
        }
        let policy = ObserverPolicy.input(verbose: verbosity.verbose, followsTones: !noAdapt)
        // Choose the concrete receiver once; everything below is generic over it.
        switch modem {
        case .fsk(let settings): try decodeAll(settings, modem: modem, policy: policy)
        case .hijack(let settings): try decodeAll(settings, modem: modem, policy: policy)
        case .auto(let settings): try decodeAll(settings, modem: modem, policy: policy)
        }
    }

    private func decodeAll<Factory: ObservedReceiverFactory>(
        _ factory: Factory, modem: Modem, policy: ObserverPolicy
    ) throws(CLIError) {
        let rawFormat = format
        if raw {
            guard let rate else { throw .usage("--raw needs --rate") }
            do {
                _ = try factory.makeReceiver(sampleRate: rate)
            } catch {
                throw CLIError(error)
            }
        }
        let printer = try messages.resolved().map { MessagePrinter(proto: $0, json: messages.json) }
        let reporter = BurstReporter(verbosity: verbosity, modem: modem)
        let inputs = files.isEmpty ? ["-"] : files
        if inputs.filter({ $0 == "-" }).count > 1 { throw .usage("stdin (-) can be read only once") }
        var output: ByteOutput?
        var failed = false
        var damaged = false
        for path in inputs {
            var truncation: AudioIOError?
            let result: DecodedInput
            do {
                if raw, let rate {
                    var source = try RawPCMReader(path: path, format: rawFormat, sampleRate: rate, channels: channels)
                    if verbosity.verbose {
                        Diagnostics.info(
                            "\(source.name): raw \(rawFormat.rawValue), \(Int(rate)) Hz, \(channels) channel(s)")
                    }
                    result = try decode(
                        &source, factory, reporter: reporter, policy: policy, printer: printer, output: &output)
                } else {
                    var source = try SoundFileReader(path: path)
                    if verbosity.verbose {
                        let length =
                            source.frames >= 0 ? ", " + BurstText.seconds(source.frames, rate: source.sampleRate) : ""
                        Diagnostics.info(
                            "\(source.name): \(source.formatDescription), \(Int(source.sampleRate)) Hz, \(source.channels) channel(s)\(length)"
                        )
                    }
                    result = try decode(
                        &source, factory, reporter: reporter, policy: policy, printer: printer, output: &output)
                    truncation = source.truncation
                }
            } catch {
                throw CLIError.mapped(error) ?? .runtime("\(error)")
            }
            if let problem = result.problem { throw CLIError(problem) }
            if let truncation { throw CLIError(truncation) }
            let (failedHere, damagedHere) = Self.report(result.name, result.stats, notes: result.notes.map(\.text))
            failed = failed || failedHere
            damaged = damaged || damagedHere
        }
        if output != nil {
            try output!.finish()
            if let printer, verbosity.verbose {
                Diagnostics.info(
                    "\(printer.messages) \(printer.proto.rawValue) messages, \(printer.discardedBytes) bytes discarded")
            }
        }
        // Damaged characters: the bytes stay printed, the status says a script cannot
        // trust them all (1, as for nothing decoded; the stderr line tells which).
        if failed || damaged { throw .reported }
    }

    /// What one input's decode says on stderr without -v: why nothing (or not the pinned
    /// profile) was decoded, or how many damaged characters were dropped. Returns whether
    /// it failed and whether it printed damaged bytes (each makes the exit status 1).
    private static func report(_ name: String, _ stats: DecodeStats, notes: [String]) -> (
        failed: Bool, damaged: Bool
    ) {
        // Nothing decoded, or a profile that does not match: the one line that says what
        // the input held instead. One line: the first observer's (a withheld burst's reason
        // comes before the survey's "nothing decoded").
        if let note = notes.first {
            Diagnostics.error("\(name): \(note)")
            return (true, false)
        }
        // Characters dropped for framing or parity errors: the bytes printed around them
        // may be wrong too, which a script must be able to see without -v.
        guard let damaged = BurstText.damaged(name, stats) else { return (false, false) }
        Diagnostics.error(damaged)
        return (false, true)
    }

    /// Decodes one input through a session. The output is made at the first input's rate
    /// and kept for the next inputs, since messages may span files.
    private func decode<Factory: ObservedReceiverFactory>(
        _ source: inout some SampleSource, _ factory: Factory, reporter: BurstReporter, policy: ObserverPolicy,
        printer: MessagePrinter?,
        output: inout ByteOutput?
    ) throws(CLIError) -> DecodedInput {
        let rate = source.sampleRate
        if output == nil {
            output = ByteOutput(
                printer: printer, sampleRate: rate, baud: factory.nominalBaud, gapBits: factory.burstGapBits)
        }
        func write(_ e: ModemEvent) throws(CLIError) { try output!.write(e, rate: rate) }
        func flush() throws(CLIError) { try output!.flush() }
        let result = try SourceDecoding.decode(
            &source, with: factory, channel: channel.map { $0 - 1 }, policy: policy, reporter: reporter,
            sessionError: { CLIError($0) }, readError: { CLIError($0) }, handle: write, flush: flush)
        reporter.summary(result.name, result.stats, channel: result.channel, channels: result.channelCount)
        return result
    }
}
