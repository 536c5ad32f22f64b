import ArgumentParser
import Foundation
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
            playing, plus the device latency, are dropped, because half-duplex boards and \
            cable crosstalk echo them back. Ctrl-D or SIGINT ends the session.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var verbosity: VerbosityOptions

    @Option(name: .long, help: ArgumentHelp("Peak level in dBFS (-120 to 0).", valueName: "dbfs"))
    var amplitude: Double = -1

    @Option(name: .long, help: ArgumentHelp("Extra milliseconds after our own transmission during which received bytes count as echo.", valueName: "ms"))
    var echoGuard: Double = 100

    func run() throws {
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
        var echoUntil = 0.0
        var echoed = 0
        var received = 0
        let captureLatency = Double(rx.capture.pcm.bufferFrames) / Double(rx.capture.sampleRate)
        var inputOpen = true
        while !StopSignal.isRequested && inputOpen {
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            if Foundation.poll(&p, 1, 0) > 0 {
                let got = input.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
                if got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN) {
                    inputOpen = false
                } else if got > 0 {
                    try input.withUnsafeBufferPointer { b throws(CLIError) in try tx.send(UnsafeBufferPointer(rebasing: b[0..<got])) }
                    try tx.endBurst()
                    // Our burst is heard back once it has played and been captured.
                    echoUntil = monotonicSeconds() + tx.playback.queuedSeconds + captureLatency + echoGuard / 1000
                }
            }
            guard try rx.poll(timeout: 0.02) else { continue }
            let now = monotonicSeconds()
            for e in rx.events where e.kind == .byte {
                if now < echoUntil { echoed += 1; continue }
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
