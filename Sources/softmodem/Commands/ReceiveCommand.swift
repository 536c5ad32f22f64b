import ArgumentParser
import CommandLineText
import ModemALSA
import ModemAudioIO
import ModemDSP
import ModemDecoding
import ModemFraming
import ModemLive
import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem receive`: decodes reliable-link audio and writes the files it carries.
struct ReceiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Decode reliable-link audio (from `send`) and write the files into a directory.",
        discussion: """
            Checks every packet's CRC-32, keeps each sequence number once and in order, and \
            checks the whole file's size and CRC-32 before renaming it into place. Reads audio \
            files (or stdin). With --device the link runs live on that sound device: packets \
            are acknowledged (half duplex) so the live sender retransmits what was lost; the \
            command ends once a file is complete and the sender has gone quiet.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup(title: "Live link") var live: LiveLinkOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Live: device sample rate in Hz, exactly (default: PipeWire's graph rate on default, pulse and pipewire; else 44100, or the device's own rate when it cannot run at 44100).",
            valueName: "hz"))
    var rate: Int?

    @Argument(help: ArgumentHelp("Directory to write received files into.", valueName: "dir"))
    var directory: String

    @Argument(help: ArgumentHelp("Audio files; - (or nothing) reads stdin.", valueName: "file"))
    var files: [String] = []

    func run() throws {
        guard FilePaths.isDirectory(directory) else {
            throw CLIError.runtime("\(directory) is not a directory")
        }
        let store = DirectoryFileStore(directory: directory)
        if live.device != nil && !files.isEmpty {
            throw CLIError.usage("give either audio files or --device NAME, not both")
        }
        if live.liveOnlyGiven || (rate != nil && live.device == nil) {
            throw CLIError.usage("--rate, --latency, --timeout and --turnaround need --device")
        }
        if live.device != nil {
            if modem.profile.isAuto {
                throw CLIError.usage("receive --device answers each packet, so it needs a named profile, not auto")
            }
            return try runLive(
                profile: try modem.resolvedProfile(), format: try modem.frameFormat(), store: store)
        }
        // Files: --profile auto finds the sender's modem (the link's timing is not used here).
        switch try modem.receiveModem(squelch: DemodulatorConfiguration.defaultSquelch, hiJackBaud: false) {
        case .fsk(let settings): try receiveFiles(settings, modem: .fsk(settings), store: store)
        case .auto(let settings): try receiveFiles(settings, modem: .auto(settings), store: store)
        case .hijack:
            throw CLIError.usage("the reliable link runs over FSK profiles, not --profile hijack")
        }
    }

    /// Takes the files back from the recordings (``LinkRecording/Reader``), decoded with
    /// `factory`'s receiver.
    private func receiveFiles<Factory: ObservedReceiverFactory>(
        _ factory: Factory, modem: Modem, store: DirectoryFileStore
    ) throws(CLIError) {
        // -vv traces characters; the burst lines of -v would drown the file messages.
        let reporter = BurstReporter(verbose: false, trace: verbosity.traceCharacters, modem: modem)
        var reader = LinkRecording.Reader(factory: factory, store: store, reporter: reporter)
        defer { reader.abandon() }
        do {
            for path in files.isEmpty ? ["-"] : files {
                var source = try SoundFileReader(path: path)
                try reader.read(&source) { h in
                    if verbosity.verbose { Diagnostics.info("received \(h.name): \(h.size) bytes, CRC-32 ok") }
                }
            }
            let s = reader.statistics
            if verbosity.verbose {
                Diagnostics.info(
                    "\(s.payloadBytes) payload bytes, \(s.messages) messages, \(s.damagedPackets) damaged packets, \(s.duplicates) duplicates"
                )
            }
            try reader.finish()
        } catch {
            throw CLIError.mapped(error) ?? .runtime("\(error)")
        }
    }
}

extension ReceiveCommand {
    /// `receive DIR --device D`: decodes live, acknowledges with ``ReliableReceiver`` on the
    /// monotonic clock, and writes the file. After the file is complete it keeps answering
    /// until the sender has been quiet for a while, because the sender retransmits the last
    /// packet until one of our ACKs gets through.
    func runLive(profile: ModemProfile, format: FrameFormat, store: DirectoryFileStore) throws(CLIError) {
        let config = LinkConfiguration(baud: profile.baud, turnaround: live.turnaround)
        StopSignal.install()
        let settings = FSKSettings(profile: profile, format: format)
        let reporter = BurstReporter(verbose: verbosity.verbose, trace: false, modem: .fsk(settings))
        let notices = NoticePrinter(verbose: verbosity.verbose)
        notices.modemName = reporter.modemName
        notices.describeTransmitter = { _ in "\(profile), \(format)" }
        let context = try live.audioOptions(rate: rate).context(notices: notices)
        let report: FileReceiveReport
        var link: LiveLink<FSKDemodulator, BurstEncoder>
        do {
            link = try LiveLink(context: context, settings: settings, preamble: config.preambleBits, reporter: reporter)
            report = try link.receiveFiles(
                into: store, baud: profile.baud, turnaround: live.turnaround, timeout: live.timeout)
        } catch {
            throw CLIError(error)
        }
        let s = report.statistics
        if verbosity.verbose {
            Diagnostics.info(LiveText.filesReceived(report))
            Diagnostics.info(LiveText.both(link.decoded, link.captureCounters, link.playbackCounters))
        }
        if report.outcome == .timedOut && report.files.isEmpty {
            throw .runtime(
                "no complete file within \(Diagnostics.number(live.timeout ?? 0)) s (\(s.payloadBytes) bytes received)")
        }
        if let unfinished = report.unfinished { throw CLIError(unfinished) }
    }
}
