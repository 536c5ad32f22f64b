import ArgumentParser
import CommandLineText
import ModemALSA
import ModemAudioIO
import ModemDSP
import ModemDecoding
import ModemLive

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem rx`: sound in from an ALSA device, decoded bytes out.
struct RxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rx",
        abstract: "Decode live audio from a sound device; bytes go to stdout as they arrive.",
        discussion: """
            Runs until SIGINT/SIGTERM, --duration or --count. With --protocol the bytes are \
            parsed and each message printed as it completes (--json: one object per line, \
            time in stream seconds) and --count counts messages. Overruns are recovered, \
            reported on stderr, and decoding resumes at the next start bit. --timestamps \
            prints one line per byte: stream time of its stop bit, latency from the end of \
            the stop bit to output, hex and character.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup(title: "Byte protocol") var messages: ProtocolOptions

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Option(name: .long, help: ArgumentHelp("Stop after this many bytes.", valueName: "n"))
    var count: Int?

    @Flag(name: .long, help: "Print bytes as hex, a line per burst.")
    var hex = false

    @Flag(name: .long, help: "Print a line per byte with its time and latency.")
    var timestamps = false

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Minimum Eb/N0 in dB for a character to count.", valueName: "db"))
    var squelch = DemodulatorConfiguration.defaultSquelch

    @Option(
        name: .long,
        help: ArgumentHelp("Capture channel to decode (1 = left/mono, the default; 2 = right).", valueName: "n"))
    var channel: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("Also write the captured audio to this WAV file (for softmodem inspect).", valueName: "file")
    )
    var record: String?

    func validate() throws {
        if record == "-" { throw ValidationError("--record needs a file name: stdout carries the decoded bytes") }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        guard squelch.isFinite, (-20...60).contains(squelch) else {
            throw ValidationError("--squelch must be between -20 and 60 dB")
        }
        if hex && timestamps { throw ValidationError("--hex and --timestamps cannot be combined") }
        if messages.name != nil && (hex || timestamps) {
            throw ValidationError("--protocol cannot be combined with --hex or --timestamps")
        }
    }

    func run() throws {
        let modem = try self.modem.receiveModem(squelch: squelch, hiJackBaud: true)
        let ch = channel ?? 1
        guard (1...32).contains(ch) else { throw CLIError.usage("--channel must be 1 to 32") }
        // Choose the concrete receiver once; the loop below is generic over it.
        switch modem {
        case .fsk(let settings): try receive(settings, modem: modem, channel: ch - 1)
        case .hijack(let settings): try receive(settings, modem: modem, channel: ch - 1)
        case .auto(let settings): try receive(settings, modem: modem, channel: ch - 1)
        }
    }

    private func receive<Factory: ObservedReceiverFactory>(_ factory: Factory, modem: Modem, channel: Int)
        throws(CLIError)
    {
        // With --protocol, parsed messages replace the raw bytes and --count counts messages.
        let printer = try messages.resolved().map { MessagePrinter(proto: $0, json: messages.json) }
        StopSignal.install()
        let reporter = BurstReporter(verbosity: verbosity, modem: modem)
        let notices = NoticePrinter(verbose: verbosity.verbose)
        notices.modemName = reporter.modemName
        let context = audio.context(notices: notices)
        var rx: LiveDecoder<Factory.Receiver>
        do {
            rx = try LiveDecoder(factory, context: context, channel: channel, reporter: reporter)
        } catch {
            throw CLIError(error)
        }
        if let record {
            do {
                rx.recorder = try WAVStreamWriter(path: record, sampleRate: Int(rx.sampleRate), channels: 1)
            } catch {
                throw CLIError(error)
            }
        }
        var output = ByteOutput(
            format: timestamps ? .timestamps : hex ? .hex : .raw, printer: printer, sampleRate: rx.sampleRate,
            baud: factory.nominalBaud, gapBits: factory.burstGapBits)
        var worstLatency = 0.0
        var worstParts = (0.0, 0.0, 0.0)
        var countReached = false
        let rate = rx.sampleRate
        func write(_ e: ModemEvent, _ t: LiveDecoder<Factory.Receiver>.CharacterTiming) throws(CLIError) {
            if timestamps {
                worstLatency = max(worstLatency, t.latency)
                worstParts = (max(worstParts.0, t.lookahead), max(worstParts.1, t.held), max(worstParts.2, t.output))
            }
            try output.write(e, rate: rate, latency: t.latency)
            if let count, output.delivered >= count { countReached = true }
        }
        func handle(_ e: ModemEvent, _ t: LiveDecoder<Factory.Receiver>.CharacterTiming) throws(CLIError) -> Bool {
            try write(e, t)
            // --count reached: stdout gets what was written before the end's reports.
            if countReached { try output.flush() }
            return !countReached
        }
        func afterRead(_ streamTime: Double) throws(CLIError) {
            try output.advance(to: streamTime)
            try output.flush()
        }
        let end = try rx.run(for: duration, deviceError: { CLIError($0) }, handle: handle, afterRead: afterRead)
        // Stopping closed the last burst's -v report; what the end completes is written
        // only while --count still wants it.
        do { try rx.finishRecording() } catch { throw CLIError(error) }
        if end != .handler {
            for e in rx.events where e.kind == .byte && !countReached {
                try write(e, rx.timing(of: e, at: context.clock.now()))
            }
        }
        try output.finish(countReached: countReached)
        if let printer, verbosity.verbose {
            Diagnostics.info(
                "\(printer.messages) \(printer.proto.rawValue) messages, \(printer.discardedBytes) bytes discarded")
        }
        if verbosity.verbose {
            let worst = timestamps ? (worstLatency, worstParts.0, worstParts.1, worstParts.2) : nil
            Diagnostics.info(
                LiveText.receiverEnd(
                    modem.name, rx.stats, rx.captureCounters, worst: worst, interrupted: StopSignal.isRequested))
        }
    }
}
