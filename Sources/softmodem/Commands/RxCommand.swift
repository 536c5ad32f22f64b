import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import ModemAudioIO
import ModemALSA
import ModemDSP

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

    @Option(name: .long, help: ArgumentHelp("Minimum Eb/N0 in dB for a character to count.", valueName: "db"))
    var squelch = DemodulatorConfiguration.defaultSquelch

    @Option(name: .long, help: ArgumentHelp("HiJack: capture channel to decode (1 = left/mono, the default; 2 = right).", valueName: "n"))
    var channel: Int?

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        guard squelch.isFinite, (-20...60).contains(squelch) else { throw ValidationError("--squelch must be between -20 and 60 dB") }
        if hex && timestamps { throw ValidationError("--hex and --timestamps cannot be combined") }
        if messages.name != nil && (hex || timestamps) { throw ValidationError("--protocol cannot be combined with --hex or --timestamps") }
    }

    func run() throws {
        if modem.isHiJack { return try runHiJack() }
        if channel != nil { throw CLIError.usage("--channel applies to --profile hijack only") }
        let profile = try modem.resolvedProfile()
        let frame = try modem.frameFormat()
        // With --protocol, parsed messages replace the raw bytes and --count counts messages.
        let printer = try messages.resolved().map { MessagePrinter(proto: $0, json: messages.json) }
        StopSignal.install()
        var rx = try LiveReceiver(options: audio, configuration: DemodulatorConfiguration(profile: profile, format: frame, squelch: squelch),
                                  verbose: verbosity.verbose)
        var sink = ByteSink()
        let bitSeconds = 1 / profile.baud
        var bytes = 0, framingErrors = 0
        var lastEnd: Int64 = -1
        var worstLatency = 0.0, worstParts = (0.0, 0.0, 0.0)
        let started = monotonicSeconds()
        rx.start()
        defer { rx.capture.stop() }
        loop: while !StopSignal.isRequested {
            if let duration, monotonicSeconds() - started >= duration { break }
            guard try rx.poll(timeout: 0.1) else { continue }
            let now = monotonicSeconds()
            for e in rx.events {
                guard e.kind == .byte else { framingErrors += 1; continue }
                bytes += 1
                if let printer {
                    try printer.push(e.value, at: rx.streamSeconds(e))
                } else { do throws(AudioIOError) {
                    if timestamps {
                        let latency = rx.latency(of: e, at: now)
                        worstLatency = max(worstLatency, latency)
                        let parts = rx.latencyParts(of: e, at: now)
                        worstParts = (max(worstParts.0, parts.lookahead), max(worstParts.1, parts.held), max(worstParts.2, parts.output))
                        let c = e.value >= 0x20 && e.value < 0x7f ? String(UnicodeScalar(e.value)) : "."
                        try sink.write(Array((cFormat("%.4f %.1f %02x ", rx.streamSeconds(e), latency * 1000, e.value) + c + "\n").utf8))
                    } else if hex {
                        let gap = lastEnd >= 0 && Double(e.startSample - lastEnd) / rx.configuration.sampleRate > 20 * bitSeconds
                        try sink.write(Array(((gap ? "\n" : lastEnd >= 0 ? " " : "") + cFormat("%02x", e.value)).utf8))
                    } else {
                        try sink.write(e.value)
                    }
                } catch {
                    throw CLIError(error)
                } }
                lastEnd = e.endSample
                if let count, (printer?.messages ?? bytes) >= count { break }
            }
            do { try sink.flush() } catch { throw CLIError(error) }
            if let count, (printer?.messages ?? bytes) >= count { break loop }
        }
        rx.stop()
        if let printer {
            if count.map({ printer.messages < $0 }) ?? true { try printer.finish() }
            if verbosity.verbose { Diagnostics.info("\(printer.messages) \(printer.proto.rawValue) messages, \(printer.discardedBytes) bytes discarded") }
        }
        if hex && lastEnd >= 0 { try? sink.write(Array("\n".utf8)) }
        do { try sink.flush() } catch { throw CLIError(error) }
        if verbosity.verbose {
            Diagnostics.info("rx: \(bytes) bytes in \(rx.bursts) bursts, \(framingErrors) framing/parity errors, \(rx.counters)"
                + (timestamps ? ", worst latency \(Diagnostics.number(worstLatency * 1000)) ms from stop bit to stdout "
                    + "(worst parts: demodulator look-ahead \(Diagnostics.number(worstParts.0 * 1000, 2)) ms, "
                    + "audio held by the device \(Diagnostics.number(worstParts.1 * 1000)) ms, "
                    + "decoding and output \(Diagnostics.number(worstParts.2 * 1000, 2)) ms)" : "")
                + (StopSignal.isRequested ? " (interrupted)" : ""))
        }
    }
}
