import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import ModemDSP

/// `softmodem tx`: bytes in, sound out of an ALSA device.
struct TxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tx",
        abstract: "Send stdin (or --text) through a sound device; exits when the last sample has played.",
        discussion: """
            Bytes that arrive together go out as one burst (preamble, characters, postamble). \
            With --keep-open the device runs from start to end and plays silence between \
            bursts, as the phone apps do, so device start-up never eats a preamble. \
            --protocol NAME builds one message from the options, as `encode --protocol` does. \
            SIGINT/SIGTERM stop reading, finish the burst and drain the device.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup(title: "Byte protocol") var messages: ProtocolOptions
    @OptionGroup(title: "Byte protocol") var fields: MessageFieldOptions
    @OptionGroup var hijack: HiJackOptions
    @OptionGroup var power: PowerToneOptions

    @Option(name: .long, help: ArgumentHelp("Send this text instead of reading stdin.", valueName: "string"))
    var text: String?

    @Flag(name: .long, help: "Keep the device running, playing silence between bursts.")
    var keepOpen = false

    @Option(name: .long, help: ArgumentHelp("Peak level in dBFS (-120 to 0).", valueName: "dbfs"))
    var amplitude: Double = -1

    @Option(name: .long, help: ArgumentHelp("Mark bits before the data.", valueName: "bits"))
    var preamble = 50

    @Option(name: .long, help: ArgumentHelp("Mark bits after the data.", valueName: "bits"))
    var postamble = 7

    func run() throws {
        if modem.isHiJack { return try runHiJack() }
        if hijack.anyGiven || power.anyGiven {
            throw CLIError.usage("--byte-period, --invert, --power-tone and --power-amplitude need --profile hijack")
        }
        let profile = try modem.resolvedProfile()
        let format = try modem.frameFormat()
        if messages.json { throw CLIError.usage("--json applies to decoding") }
        // With --protocol the message is built from the options (and --text) like `encode` does.
        let message = try messages.resolved().map { p throws(CLIError) in try fields.encode(p, text: text) }
        guard amplitude.isFinite, (-120...0).contains(amplitude) else { throw CLIError(ModemConfigurationError.invalidAmplitude(amplitude)) }
        guard (0...10_000).contains(preamble), (0...10_000).contains(postamble) else {
            throw CLIError.usage("--preamble and --postamble must be 0 to 10000 bits")
        }
        StopSignal.install()
        var tx = try LiveTransmitter(options: audio, profile: profile, format: format, amplitudeDB: amplitude,
                                     preamble: preamble, postamble: postamble, keepOpen: keepOpen, verbose: verbosity.verbose)
        tx.start()
        if let message {
            try message.withUnsafeBufferPointer { b throws(CLIError) in try tx.send(b) }
        } else if let text {
            try Array(text.utf8).withUnsafeBufferPointer { b throws(CLIError) in try tx.send(b) }
        } else {
            try pump(&tx)
        }
        try tx.finish()
        if verbosity.verbose { Diagnostics.info("tx: \(tx.counters)\(StopSignal.isRequested ? " (interrupted)" : "")") }
    }

    /// Reads stdin until EOF or a stop signal; a pause in the input ends the burst.
    private func pump(_ tx: inout LiveTransmitter) throws(CLIError) {
        var input = [UInt8](repeating: 0, count: 4096)
        while !StopSignal.isRequested {
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&p, 1, 100)
            if ready == 0 {
                // Nothing more for now: close the burst so the board sees the postamble.
                if tx.bytesSent > 0 { try tx.endBurst() }
                continue
            }
            if ready < 0 {
                if errno == EINTR { continue }
                throw .runtime("error waiting for stdin: \(String(cString: strerror(errno)))")
            }
            let got = input.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .runtime("error reading stdin: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return }
            try input.withUnsafeBufferPointer { b throws(CLIError) in try tx.send(UnsafeBufferPointer(rebasing: b[0..<got])) }
        }
    }
}
