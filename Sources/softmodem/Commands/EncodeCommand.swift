import ArgumentParser
import ModemAudioIO
import ModemDSP
import ModemLive

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
        var transmitter: Maker.Transmitter
        do { transmitter = try maker.make(sampleRate: rate) } catch { throw CLIError(LiveError.transmitter(error)) }
        let layout = maker.channelPlan == .mono ? channels : .both
        let destination = output ?? "-"
        var sink = try openSink(destination, layout: layout)
        let chunk = 256
        let frames = max(
            transmitter.maxFrames(forBytes: chunk), transmitter.maxFramesForFinish,
            Int(rate) / 10 + transmitter.restOvershoot)
        var samples = [Float](repeating: 0, count: frames * transmitter.channels)
        func put(_ n: Int) throws(CLIError) {
            do throws(AudioIOError) {
                if transmitter.channelPlan == .mono {
                    try sink.write(samples, count: n)
                } else {
                    try samples.withUnsafeBufferPointer { b throws(AudioIOError) in
                        try sink.writeInterleaved(UnsafeBufferPointer(rebasing: b[0..<(n * transmitter.channels)]))
                    }
                }
            } catch {
                throw CLIError(error)
            }
        }
        func rest() throws(CLIError) {
            var left = Int(silence * rate)
            while left > 0 {
                let ask = min(left, Int(rate) / 10)
                let n = samples.withUnsafeMutableBufferPointer { transmitter.rest(atLeast: ask, into: $0.baseAddress!) }
                try put(n)
                left -= n
            }
        }
        func encode(_ bytes: UnsafeBufferPointer<UInt8>) throws(CLIError) {
            var i = 0
            while i < bytes.count {
                let part = UnsafeBufferPointer(rebasing: bytes[i..<min(i + chunk, bytes.count)])
                let n = samples.withUnsafeMutableBufferPointer { transmitter.encode(part, into: $0.baseAddress!) }
                try put(n)
                i += part.count
            }
        }
        try rest()
        var total = 0
        if let bytes = message {
            try bytes.withUnsafeBufferPointer { b throws(CLIError) in try encode(b) }
            total = bytes.count
        } else {
            var input = [UInt8](repeating: 0, count: chunk)
            while true {
                let got = input.withUnsafeMutableBytes { read(0, $0.baseAddress!, chunk) }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw CLIError.runtime("error reading stdin: \(String(cString: strerror(errno)))")
                }
                if got == 0 { break }
                total += got
                try input.withUnsafeBufferPointer { b throws(CLIError) in
                    try encode(UnsafeBufferPointer(rebasing: b[0..<got]))
                }
            }
        }
        try put(samples.withUnsafeMutableBufferPointer { transmitter.finishBurst(into: $0.baseAddress!) })
        try rest()
        do { try sink.finish() } catch { throw CLIError(error) }
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
