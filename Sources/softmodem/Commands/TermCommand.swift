import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import ModemAudioIO
import ModemALSA
import ModemDSP

/// `softmodem term`: an interactive full-duplex terminal over one sound device.
struct TermCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "term",
        abstract: "Interactive terminal: typed lines are sent, received bytes are printed.",
        discussion: """
            Like a serial console for the boards. Each line typed (with its newline) goes \
            out as one burst on a stream kept open; bytes heard while our own burst is \
            playing and shortly after are dropped when they match what we sent, because \
            half-duplex boards and cable crosstalk echo them back; anything else is printed. \
            Ctrl-D or SIGINT ends the session.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup var hijack: HiJackOptions
    @OptionGroup var power: PowerToneOptions

    @Option(name: .long, help: ArgumentHelp("Peak level in dBFS (-120 to 0).", valueName: "dbfs"))
    var amplitude: Double = -1

    @Option(name: .long, help: ArgumentHelp("How long after our own transmission has played its echo may still arrive, in ms (sound servers add latency).", valueName: "ms"))
    var echoGuard: Double = 500

    func run() throws {
        guard amplitude.isFinite, (-120...0).contains(amplitude) else { throw CLIError(ModemConfigurationError.invalidAmplitude(amplitude)) }
        guard echoGuard.isFinite, (0...10_000).contains(echoGuard) else { throw CLIError.usage("--echo-guard must be 0 to 10000 ms") }
        let modem = try self.modem.receiveModem(squelch: DemodulatorConfiguration.defaultSquelch, hiJackBaud: true)
        let outgoing = try self.modem.transmitModem(hijack: hijack, power: power)
        // Choose the concrete receiver and transmitter once; the session below is generic.
        switch (modem, outgoing) {
        case (.fsk(let settings), _):
            try session(settings, modem: modem,
                        FSKTransmitterMaker(settings: settings, amplitudeDB: amplitude, preamble: 50, postamble: 7), tail: 0)
        case (.hijack(let settings), .hijack(let s)):
            // The board talks at its own rate (--baud moves the receiver); we send at the
            // host's stock rate.
            try session(settings, modem: modem,
                        HiJackTransmitterMaker(baud: HiJack.hostBaud, bytePeriod: s.bytePeriod, invert: s.invert, amplitudeDB: amplitude,
                                               preamble: 50, postamble: 7, power: power, idleLine: true), tail: TxCommand.hiJackTail)
        case (.hijack, .fsk):
            throw CLIError.usage("--profile hijack must send and receive HiJack")
        }
    }

    private func session<Factory: ModemReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, modem: Modem, _ maker: Maker, tail: Double
    ) throws(CLIError) {
        StopSignal.install()
        var tx = try LiveTransmitter(maker, options: audio, keepOpen: true, verbose: verbosity.verbose)
        var rx = try LiveDecoder(factory, options: audio, reporter: BurstReporter(verbosity: verbosity, modem: modem))
        tx.start()
        rx.start()
        if Diagnostics.stderrIsTerminal { Diagnostics.info("softmodem term on \(audio.device), \(modem.name): type lines, Ctrl-D to quit") }
        var output = ByteOutput(printer: nil, sampleRate: rx.sampleRate, baud: factory.nominalBaud, gapBits: factory.burstGapBits)
        var stdin = StdinReader()
        var echo = EchoFilter()
        var echoed = 0
        var received = 0
        let captureLatency = Double(rx.capture.pcm.bufferFrames) / Double(rx.capture.sampleRate)
        var inputOpen = true
        while !StopSignal.isRequested && inputOpen {
            try tx.pump()
            switch try stdin.read(waiting: 0) {
            case .end:
                inputOpen = false
            case .nothing:
                break
            case .bytes(let got):
                try stdin.buffer.withUnsafeBufferPointer { b throws(CLIError) in try tx.send(UnsafeBufferPointer(rebasing: b[0..<got])) }
                try tx.endBurst()
                // Our bytes are heard back once they have played and been captured; the
                // sound server's own buffering comes on top, hence the guard.
                echo.expect(stdin.buffer[0..<got], until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency
                            + tx.airSeconds(bytes: got) + echoGuard / 1000)
            }
            if !tx.isIdle {
                // Still sending (devices and servers may start late): the echo can come
                // until our audio has left the device and been captured.
                echo.extend(until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency + tx.airSeconds(bytes: 1) + echoGuard / 1000)
            }
            guard try rx.poll(timeout: 0.02) else { continue }
            let now = monotonicSeconds()
            for e in rx.events where e.kind == .byte {
                if echo.isEcho(e.value, at: now) { echoed += 1; continue }
                received += 1
                try output.write(e, rate: rx.sampleRate)
            }
            try output.flush()
        }
        try tx.finish(tail: tail)
        rx.stop()
        if verbosity.verbose {
            Diagnostics.info("term: \(received) bytes received, \(echoed) echoed bytes suppressed; rx \(rx.counters); tx \(tx.counters)")
        }
    }
}

/// Recognises our own transmission coming back: bytes we sent, in order, before a deadline.
///
/// A received byte that matches the next expected one (or one of the next few, when the
/// echo lost a character) is echo; anything else is the other side talking.
struct EchoFilter {
    private var expected: [UInt8] = []
    private var next = 0
    private var deadline = 0.0
    static let lookahead = 4

    mutating func expect(_ bytes: ArraySlice<UInt8>, until: Double) {
        if next > 4096 { expected.removeFirst(next); next = 0 }
        expected.append(contentsOf: bytes)
        deadline = until
    }

    /// Keeps the current expectation alive until at least `until`.
    mutating func extend(until: Double) {
        if !expected.isEmpty { deadline = max(deadline, until) }
    }

    mutating func isEcho(_ byte: UInt8, at now: Double) -> Bool {
        guard now < deadline else { expected.removeAll(); next = 0; return false }
        for k in next..<min(expected.count, next + Self.lookahead) where expected[k] == byte {
            next = k + 1
            return true
        }
        return false
    }
}
