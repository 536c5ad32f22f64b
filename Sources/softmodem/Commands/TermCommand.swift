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
        if modem.isHiJack { return try runHiJack() }
        if hijack.anyGiven || power.anyGiven {
            throw CLIError.usage("--byte-period, --invert, --power-tone and --power-amplitude need --profile hijack")
        }
        let profile = try modem.resolvedProfile()
        let frame = try modem.frameFormat()
        guard amplitude.isFinite, (-120...0).contains(amplitude) else { throw CLIError(ModemConfigurationError.invalidAmplitude(amplitude)) }
        guard echoGuard.isFinite, (0...10_000).contains(echoGuard) else { throw CLIError.usage("--echo-guard must be 0 to 10000 ms") }
        StopSignal.install()
        var tx = try LiveTransmitter(options: audio, profile: profile, format: frame, amplitudeDB: amplitude,
                                     preamble: 50, postamble: 7, keepOpen: true, verbose: verbosity.verbose)
        var rx = try LiveReceiver(options: audio, configuration: DemodulatorConfiguration(profile: profile, format: frame),
                                  verbose: verbosity.verbose)
        tx.start()
        rx.start()
        if Diagnostics.stderrIsTerminal { Diagnostics.info("softmodem term on \(audio.device), \(profile): type lines, Ctrl-D to quit") }
        var sink = ByteSink()
        var input = [UInt8](repeating: 0, count: 4096)
        var echo = EchoFilter()
        var echoed = 0
        var received = 0
        let captureLatency = Double(rx.capture.pcm.bufferFrames) / Double(rx.capture.sampleRate)
        let bitSeconds = 1 / profile.baud
        var inputOpen = true
        while !StopSignal.isRequested && inputOpen {
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&p, 1, 0) > 0 {
                let got = input.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
                if got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN) {
                    inputOpen = false
                } else if got > 0 {
                    try input.withUnsafeBufferPointer { b throws(CLIError) in try tx.send(UnsafeBufferPointer(rebasing: b[0..<got])) }
                    try tx.endBurst()
                    // Our burst is heard back once it has played and been captured; the
                    // sound server's own buffering comes on top, hence the guard.
                    echo.expect(input[0..<got], until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency
                                + Double(got * frame.bitsPerFrame) * bitSeconds + echoGuard / 1000)
                }
            }
            if tx.playback.pendingFrames > 0 {
                // Still playing our burst (devices and servers may start late): its echo
                // can come until it has left the device and been captured.
                echo.extend(until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency + echoGuard / 1000)
            }
            guard try rx.poll(timeout: 0.02) else { continue }
            let now = monotonicSeconds()
            for e in rx.events where e.kind == .byte {
                if echo.isEcho(e.value, at: now) { echoed += 1; continue }
                received += 1
                do { try sink.write(e.value) } catch { throw CLIError(error) }
            }
            do { try sink.flush() } catch { throw CLIError(error) }
        }
        try tx.finish()
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
