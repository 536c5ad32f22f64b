#if canImport(Glibc)
import Glibc
#endif
import ModemAudioIO
import ModemALSA
import ModemDSP

/// `softmodem term --profile hijack`: full duplex with a HiJack board on one device.
///
/// Out: the HiJack line kept running for the whole session (left: idle 1s, typed bytes as
/// frames; right: the power tone, which never stops). In: the microphone decoded with the
/// board's bit rate (or `--baud`). Bytes heard while our own bytes are on the line, and
/// `--echo-guard` after, are dropped when they match what we sent (cable crosstalk).
extension TermCommand {
    func runHiJack() throws {
        try modem.checkHiJackCompatible()
        guard amplitude.isFinite, (-120...0).contains(amplitude) else { throw CLIError(ModemConfigurationError.invalidAmplitude(amplitude)) }
        guard echoGuard.isFinite, (0...10_000).contains(echoGuard) else { throw CLIError.usage("--echo-guard must be 0 to 10000 ms") }
        let hostBaud = HiJack.hostBaud
        let boardBaud = modem.baud ?? HiJack.boardBaud
        let bytePeriod = hijack.bytePeriod ?? HiJack.defaultBytePeriod
        let level = Float(pow(10, amplitude / 20))
        let invert = hijack.invert
        do {
            _ = try HiJackEncoder(sampleRate: Double(audio.rate), baud: hostBaud, bytePeriod: bytePeriod, amplitude: level, invert: invert)
            _ = try HiJackDecoder(sampleRate: Double(audio.rate), nominalBaud: boardBaud)
        } catch {
            throw CLIError.usage("\(error)")
        }
        _ = try power.tone(sampleRate: Double(audio.rate))
        StopSignal.install()
        var tx = try HiJackLiveTransmitter(options: audio, encoder: { rate throws(CLIError) in
            do {
                return try HiJackEncoder(sampleRate: rate, baud: hostBaud, bytePeriod: bytePeriod, amplitude: level, invert: invert)
            } catch {
                throw .usage("\(error)")
            }
        }, power: power, verbose: verbosity.verbose)
        var rx = try HiJackLiveReceiver(options: audio, channel: 0, nominalBaud: boardBaud, verbose: verbosity.verbose)
        tx.start()
        rx.start()
        if Diagnostics.stderrIsTerminal { Diagnostics.info("softmodem term on \(audio.device), hijack: type lines, Ctrl-D to quit") }
        var sink = ByteSink()
        var input = [UInt8](repeating: 0, count: 4096)
        var echo = EchoFilter()
        var echoed = 0
        var received = 0
        let captureLatency = Double(rx.capture.pcm.bufferFrames) / Double(rx.capture.sampleRate)
        let byteSeconds = Double(bytePeriod) / hostBaud
        var inputOpen = true
        while !StopSignal.isRequested && inputOpen {
            try tx.pump()
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&p, 1, 0) > 0 {
                let got = input.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
                if got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN) {
                    inputOpen = false
                } else if got > 0 {
                    try input.withUnsafeBufferPointer { b throws(CLIError) in try tx.send(UnsafeBufferPointer(rebasing: b[0..<got])) }
                    echo.expect(input[0..<got], until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency
                                + Double(got) * byteSeconds + echoGuard / 1000)
                }
            }
            if !tx.isIdle {
                // Our bytes are still going out: their echo can come until they have left
                // the device and been captured.
                echo.extend(until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency + byteSeconds + echoGuard / 1000)
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
        try tx.finish(tail: TxCommand.hiJackTail)
        rx.stop()
        if verbosity.verbose {
            Diagnostics.info("term: \(received) bytes received, \(echoed) echoed bytes suppressed; rx \(rx.counters); tx \(tx.counters)")
        }
    }
}
