import ArgumentParser
import CommandLineText
import ModemALSA
import ModemAudioIO
import ModemDSP
import ModemFraming
import ModemLive
import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem send`: a file as reliable-link packets, written as modem audio.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a file as reliable-link packets (sequence numbers, CRC-32), written as modem audio.",
        discussion: """
            Each packet (at most 31 bytes on the wire, the Arduino's receive buffer) becomes one \
            burst. The first message carries the file name, size and CRC-32. Written to a file \
            there is no return channel, so nothing is acknowledged: --repeat sends every packet \
            several times and the receiver keeps the first good copy. With --device instead of \
            -o the link runs live and half duplex on that sound device: each burst waits for the \
            receiver's acknowledgement (`softmodem receive DIR --device D` at the far end) and is \
            sent again when it does not come; throughput and retransmissions are reported with -v.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup(title: "Live link") var live: LiveLinkOptions

    @Argument(help: ArgumentHelp("The file to send.", valueName: "file"))
    var file: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Output audio file, or - for a WAV stream on stdout.", valueName: "file"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Sample rate in Hz (default 44100; live, as tx chooses it: PipeWire's graph rate, or the device's own).",
            valueName: "hz"))
    var rate: Double?

    /// The rate of the file written with -o.
    var fileRate: Double { rate ?? Double(LiveAudioOptions.defaultRate) }

    @Option(name: .long, help: ArgumentHelp("Send every packet this many times (1-10).", valueName: "n"))
    var `repeat` = 1

    @Option(name: .long, help: ArgumentHelp("Mark bits before each burst.", valueName: "bits"))
    var preamble = 50

    @Option(
        name: .long,
        help: ArgumentHelp("Silence between bursts, seconds (the far end's turnaround).", valueName: "seconds"))
    var gap = 0.15

    func run() throws {
        let profile = try modem.resolvedProfile()
        let format = try modem.frameFormat()
        guard (1...10).contains(self.repeat) else { throw CLIError.usage("--repeat must be 1-10") }
        guard (0...1000).contains(preamble) else { throw CLIError.usage("--preamble must be 0-1000 bits") }
        guard gap.isFinite, (0...10).contains(gap) else { throw CLIError.usage("--gap must be 0-10 seconds") }
        if let rate, rate != rate.rounded() { throw CLIError.usage("--rate must be a whole number of hertz") }
        if live.device != nil && output != nil {
            throw CLIError.usage("give either -o FILE or --device NAME, not both")
        }
        if live.liveOnlyGiven { throw CLIError.usage("--latency, --timeout and --turnaround need --device") }
        if live.device != nil { return try runLive(profile: profile, format: format) }
        guard let output else { throw CLIError.usage("give -o FILE (audio out) or --device NAME (live, acknowledged)") }
        if output == "-" && Diagnostics.stdoutIsTerminal {
            throw CLIError.usage("refusing to write audio to a terminal; use -o FILE or a pipe")
        }
        try writeFile(profile: profile, format: format, to: output)
    }

    /// `send FILE -o OUT`: the file as link packets in a recording (``LinkRecording``).
    private func writeFile(profile: ModemProfile, format: FrameFormat, to output: String) throws(CLIError) {
        let settings = LinkRecording.Settings(
            profile: profile, format: format, sampleRate: fileRate, preambleBits: preamble,
            repeats: self.repeat, gapSeconds: gap)
        let summary: LinkRecording.Summary
        do {
            summary = try LinkRecording.write(file: file, to: output, settings)
        } catch {
            switch error {
            case .input(let e): throw CLIError(e)
            case .output(let e): throw CLIError(e)
            case .modem(let e): throw CLIError(e)
            }
        }
        if verbosity.verbose {
            let h = summary.header
            Diagnostics.info(
                "\(h.name): \(h.size) bytes, CRC-32 \(String(h.crc, radix: 16)), \(summary.bursts) bursts, about \(Int(summary.seconds)) s of audio"
            )
        }
    }
}

extension SendCommand {
    /// `send FILE --device D`: the file header and content as two link messages, sent with
    /// ``ReliableSender`` on the live device, on the monotonic clock.
    func runLive(profile: ModemProfile, format: FrameFormat) throws(CLIError) {
        if let rate, !(1...1_000_000).contains(rate) { throw .usage("--rate must be 1 to 1000000 Hz") }
        let bytes: [UInt8]
        do { bytes = try InputFile(path: file).readAll() } catch { throw CLIError(error) }
        let name = FilePaths.baseName(file)
        let notices = NoticePrinter(verbose: verbosity.verbose)
        notices.describeTransmitter = { _ in "\(profile), \(format)" }
        notices.fileTransfer = true
        StopSignal.install()
        let report: FileSendReport
        let counters: String
        let context = try live.audioOptions(rate: rate.map { Int($0) }).context(notices: notices)
        let settings = FSKSettings(profile: profile, format: format)
        let reporter = BurstReporter(verbose: verbosity.verbose, trace: false, modem: .fsk(settings))
        notices.modemName = reporter.modemName
        do {
            var link = try LiveLink(context: context, settings: settings, preamble: preamble, reporter: reporter)
            report = try link.sendFile(
                bytes, name: name, baud: profile.baud, preamble: preamble, turnaround: live.turnaround,
                timeout: live.timeout)
            counters = LiveText.both(link.decoded, link.captureCounters, link.playbackCounters)
        } catch {
            throw CLIError(error)
        }
        if verbosity.verbose || report.outcome != .delivered {
            Diagnostics.info(LiveText.fileSent(report, name: name, baud: profile.baud))
        }
        if verbosity.verbose { Diagnostics.info(counters) }
        let timedOut = report.outcome == .timedOut
        if timedOut {
            throw .runtime(
                "\(name): not acknowledged within \(Diagnostics.number(live.timeout ?? 0)) s; is `softmodem receive DIR --device ...` running at the far end?"
            )
        }
        if report.outcome == .interrupted {
            throw .runtime("\(name): interrupted before the receiver acknowledged everything")
        }
    }
}
