import ArgumentParser
import ModemAudioIO
import ModemDSP

/// `softmodem decode`: recordings in, bytes out.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode modem audio from files or stdin; decoded bytes go to stdout.",
        discussion: """
            Reads any format libsndfile knows (WAV, AIFF, CAF, FLAC, OGG, ...) or headerless \
            PCM with --raw. Needs no preamble and no level setting. With -v each burst is \
            reported on stderr: start time, level, SNR, measured tones, byte count, framing errors.
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

    @Option(name: .long, help: ArgumentHelp("Sample format of --raw input: \(RawSampleFormat.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"))
    var format = RawSampleFormat.s16le.rawValue

    @Option(name: .long, help: ArgumentHelp("Channel count of --raw input.", valueName: "n"))
    var channels = 1

    @Option(name: .long, help: ArgumentHelp("Decode this channel (1 = left); default: the one carrying the signal.", valueName: "n"))
    var channel: Int?

    @Flag(name: .long, help: "Keep the profile's tones instead of retuning to a sender's measured ones between bursts.")
    var noAdapt = false

    @Option(name: .long, help: ArgumentHelp("Minimum Eb/N0 in dB for a character to count (default \(Int(DemodulatorConfiguration.defaultSquelch))). Lower finds weaker signals and more false bytes.", valueName: "db"))
    var squelch = DemodulatorConfiguration.defaultSquelch

    func validate() throws {
        if let channel, channel < 1 { throw CLIError.usage("--channel counts from 1, not \(channel)") }
        if !raw && rate != nil { throw CLIError.usage("--rate applies to --raw input only (files carry their own rate)") }
        guard squelch.isFinite, (-20...60).contains(squelch) else { throw CLIError.usage("--squelch must be between -20 and 60 dB") }
    }

    func run() throws {
        if modem.isHiJack { return try runHiJack() }
        let profile = try modem.resolvedProfile()
        let frame = try modem.frameFormat()
        let rawFormat = RawSampleFormat(rawValue: format.lowercased())
        if raw {
            guard rawFormat != nil else {
                throw CLIError.usage("unknown raw format '\(format)'; use one of: \(RawSampleFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let rate else { throw CLIError.usage("--raw needs --rate") }
            do {
                try profile.validate(sampleRate: rate)
            } catch {
                throw CLIError(error)
            }
        }
        let proto = try messages.resolved()
        var pipeline = DecodePipeline(
            configuration: DemodulatorConfiguration(profile: profile, sampleRate: rate ?? 44_100, format: frame, squelch: squelch),
            channel: channel.map { $0 - 1 }, verbose: verbosity.verbose, trace: verbosity.traceCharacters, adapt: !noAdapt)
        let printer = proto.map { MessagePrinter(proto: $0, json: messages.json) }
        if let printer { pipeline.onByte = { b, t throws(CLIError) in try printer.push(b, at: t) } }
        var sink = ByteSink()
        let inputs = files.isEmpty ? ["-"] : files
        if inputs.filter({ $0 == "-" }).count > 1 { throw CLIError.usage("stdin (-) can be read only once") }
        for path in inputs {
            try decode(path, pipeline: pipeline, rawFormat: rawFormat, sink: &sink)
        }
        if let printer {
            try printer.finish()
            if verbosity.verbose { Diagnostics.info("\(printer.messages) \(printer.proto.rawValue) messages, \(printer.discardedBytes) bytes discarded") }
        }
    }

    private func decode(_ path: String, pipeline: DecodePipeline, rawFormat: RawSampleFormat?, sink: inout ByteSink) throws(CLIError) {
        var truncation: AudioIOError?
        let result: DecodePipeline.Result
        let name: String
        do {
            if raw, let rawFormat, let rate {
                var source = try RawPCMReader(path: path, format: rawFormat, sampleRate: rate, channels: channels)
                name = source.name
                if verbosity.verbose { Diagnostics.info("\(name): raw \(rawFormat.rawValue), \(Int(rate)) Hz, \(channels) channel(s)") }
                result = try pipeline.run(&source, into: &sink)
            } else {
                var source = try SoundFileReader(path: path)
                name = source.name
                if verbosity.verbose {
                    let length = source.frames >= 0 ? ", " + Diagnostics.seconds(source.frames, rate: source.sampleRate) : ""
                    Diagnostics.info("\(name): \(source.formatDescription), \(Int(source.sampleRate)) Hz, \(source.channels) channel(s)\(length)")
                }
                result = try pipeline.run(&source, into: &sink)
                truncation = source.truncation
            }
        } catch let error as AudioIOError {
            throw CLIError(error)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .runtime("\(error)")
        }
        if verbosity.verbose {
            Diagnostics.info("\(name): \(result.bytes) bytes in \(result.bursts) bursts, \(result.framingErrors) framing errors, \(result.parityErrors) parity errors")
        }
        try InputChecks.decoded(name, frames: result.frames, peak: result.peak, truncation: truncation)
    }
}
