import ArgumentParser
import ModemAudioIO
import ModemDSP
import ModemLive
import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem encode`: bytes in, SoftModem audio out.
struct EncodeCommand: ParsableCommand, MessageSender {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Turn bytes from stdin (or --text) into modem audio.",
        discussion: """
            Writes one burst: a mark preamble, the bytes as back-to-back characters, a mark \
            postamble, as the SoftModem phone apps send them. The output format follows the \
            file name (.wav, .flac, .ogg, .aiff, .caf, .au); '-o -' writes a WAV stream to stdout.
            """)

    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup var sending: TransmitOptions

    @Option(name: .long, help: ArgumentHelp("Sample rate in Hz (8000-192000).", valueName: "hz"))
    var rate: Double = 44_100

    @Option(
        name: .long,
        help: ArgumentHelp("mono, left, right or both (stereo with the signal on both).", valueName: "layout"))
    var channels = ChannelLayout.mono

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or - for stdout.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Silence before and after the burst, in seconds.", valueName: "seconds"))
    var silence: Double = 0.1

    @Flag(name: .long, help: "Write 32-bit float WAV instead of 16-bit PCM.")
    var float = false

    func run() throws {
        guard silence.isFinite, silence >= 0, silence <= 3600 else {
            throw CLIError.usage("--silence must be 0 to 3600 seconds")
        }
        guard rate.isFinite, rate == rate.rounded() else {
            throw CLIError.usage("--rate must be a whole number of hertz")
        }
        // The lead-in and tail are the resting line alone (HiJack: the power tone, so the
        // board powers up first).
        try sending.send(with: self, idleLine: false)
    }

    /// Writes `--silence` of resting line, one burst of the bytes, and `--silence` again.
    /// `layout` places a one-channel signal; a transmitter of two channels (HiJack: data
    /// left, power right) fills both itself.
    func send<Maker: DescribedMaker>(_ maker: Maker, message: [UInt8]?) throws(CLIError) {
        guard maker.channelPlan == .mono || channels == .mono || channels == .both else {
            throw CLIError.usage(
                "--profile hijack always writes stereo (left data, right power); --channels does not apply")
        }
        let transmitter: Maker.Transmitter
        do { transmitter = try maker.make(sampleRate: rate) } catch { throw CLIError(LiveError.transmitter(error)) }
        let layout = maker.channelPlan == .mono ? channels : .both
        let destination = output ?? "-"
        var recording = TransmitterRecording(transmitter, sink: try openSink(destination, layout: layout))
        do {
            try recording.rest(seconds: silence)
            if let bytes = message {
                try bytes.withUnsafeBufferPointer { b throws(AudioIOError) in try recording.encode(b) }
            } else {
                let input = InputFile.standardInput()
                while case let piece = try input.read(upTo: recording.bytesPerPiece), !piece.isEmpty {
                    try piece.withUnsafeBufferPointer { b throws(AudioIOError) in try recording.encode(b) }
                }
            }
            try recording.finishBurst()
            try recording.rest(seconds: silence)
            try recording.finish()
        } catch {
            throw CLIError.mapped(error) ?? .runtime("\(error)")
        }
        let total = recording.bytes
        if verbosity.verbose {
            Diagnostics.info(
                "encoded \(total) bytes as \(maker.describe(sampleRate: rate)), \(Int(rate)) Hz, \(layout.rawValue), "
                    + "peak \(sending.amplitude) dBFS -> \(destination == "-" ? "stdout" : destination)")
        }
        if total == 0 { Diagnostics.warning("no input bytes: wrote the resting line only") }
    }

    /// The output file (or stdout, never a terminal) for `layout`.
    private func openSink(_ destination: String, layout: ChannelLayout) throws(CLIError) -> AudioSink {
        if destination == "-" && Diagnostics.stdoutIsTerminal {
            throw CLIError.usage("refusing to write audio to a terminal; use -o FILE or a pipe")
        }
        do { return try AudioSink(path: destination, sampleRate: Int(rate), layout: layout, float: float) } catch {
            throw CLIError(error)
        }
    }
}
