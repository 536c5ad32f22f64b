import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import ModemAudioIO
import ModemDSP
import ModemFraming

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

    @Option(name: .long, help: ArgumentHelp("Live: device sample rate in Hz.", valueName: "hz"))
    var rate = 44_100

    @Argument(help: ArgumentHelp("Directory to write received files into.", valueName: "dir"))
    var directory: String

    @Argument(help: ArgumentHelp("Audio files; - (or nothing) reads stdin.", valueName: "file"))
    var files: [String] = []

    func run() throws {
        let profile = try modem.resolvedProfile()
        let frame = try modem.frameFormat()
        guard isDirectory(directory) else {
            throw CLIError.runtime("\(directory) is not a directory")
        }
        let assembler = FileAssembler(directory: directory, verbose: verbosity.verbose)
        if live.device != nil && !files.isEmpty { throw CLIError.usage("give either audio files or --device NAME, not both") }
        if live.liveOnlyGiven || (rate != 44_100 && live.device == nil) { throw CLIError.usage("--rate, --latency, --timeout and --turnaround need --device") }
        if live.device != nil { return try runLive(profile: profile, format: frame, assembler: assembler) }
        var receiver = ReliableReceiver(configuration: LinkConfiguration(baud: profile.baud))
        let settings = FSKSettings(profile: profile, format: frame)
        // -vv traces characters; the burst lines of -v would drown the file messages.
        let reporter = BurstReporter(verbose: false, trace: verbosity.traceCharacters, modem: .fsk(settings))
        for path in files.isEmpty ? ["-"] : files {
            var source: SoundFileReader
            do { source = try SoundFileReader(path: path) } catch { throw CLIError(error) }
            let rate = source.sampleRate
            var session = try DecodeSession(settings, sampleRate: rate, channels: source.channels, channel: nil, name: source.name,
                                            reporter: reporter) { [ToneAdapterObserver(settings: settings, sampleRate: rate, verbose: false)] }
            try SourceDecoding.run(&source, through: &session) { e throws(CLIError) in
                guard e.kind == .byte else { return }
                for d in receiver.receive(CollectionOfOne(e.value), at: Double(e.endSample) / rate) { try assembler.add(d) }
            }
        }
        let s = receiver.statistics
        if verbosity.verbose {
            Diagnostics.info("\(s.payloadBytes) payload bytes, \(s.messages) messages, \(s.damagedPackets) damaged packets, \(s.duplicates) duplicates")
        }
        try assembler.finish()
    }
}

/// Turns link deliveries into files: header message, then content written as it arrives
/// to NAME.part, renamed to NAME when size and CRC-32 match.
final class FileAssembler {
    let directory: String
    let verbose: Bool
    private var header: FileHeader?
    private var headerBytes: [UInt8] = []
    private var handle: OutputFile?
    private var received: UInt64 = 0
    private var crc: UInt32 = 0
    private(set) var completed: [String] = []

    /// True between a file's header and its last byte.
    var isReceiving: Bool { header != nil || !headerBytes.isEmpty }

    init(directory: String, verbose: Bool) {
        self.directory = directory
        self.verbose = verbose
    }

    private func path(_ name: String) -> String { joinPath(directory, name) }

    func add(_ d: LinkDelivery) throws(CLIError) {
        guard let h = header else {
            headerBytes += d.bytes
            guard headerBytes.count <= 512 else { throw .runtime("the stream does not start with a file header") }
            guard d.endOfMessage else { return }
            guard let h = FileHeader.decode(headerBytes) else { throw .runtime("the stream does not start with a valid file header") }
            headerBytes = []
            header = h
            handle = try OutputFile(path: path(h.name + ".part"))
            received = 0
            crc = 0
            return
        }
        received += UInt64(d.bytes.count)
        crc = CRC32.update(crc, d.bytes)
        try handle?.write(d.bytes)
        guard d.endOfMessage else { return }
        handle?.close()
        handle = nil
        header = nil
        guard received == h.size, crc == h.crc else {
            throw .runtime("\(h.name): got \(received) of \(h.size) bytes, CRC-32 \(String(crc, radix: 16)) instead of \(String(h.crc, radix: 16)); kept as \(h.name).part")
        }
        let final = path(h.name)
        try renameFile(path(h.name + ".part"), to: final)
        completed.append(h.name)
        if verbose { Diagnostics.info("received \(h.name): \(h.size) bytes, CRC-32 ok") }
    }

    /// Fails if no file was completed or one is still incomplete.
    func finish() throws(CLIError) {
        if let h = header {
            throw .runtime("\(h.name): incomplete, \(received) of \(h.size) bytes (kept as \(h.name).part); a packet was lost, try send --repeat")
        }
        if completed.isEmpty { throw .runtime("no file found in the audio") }
    }
}
