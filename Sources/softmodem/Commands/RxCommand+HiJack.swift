#if canImport(Glibc)
import Glibc
#endif
import ModemAudioIO
import ModemALSA
import ModemDSP

/// `softmodem rx --profile hijack`: board -> phone HiJack from a sound device, bytes out.
///
/// Same outputs as FSK `rx` (raw bytes, `--hex`, `--timestamps`, `--count`, `--duration`);
/// `-v` adds parity and framing error counts, the measured bit rate and the polarity.
/// `--baud` moves the decoder's nominal rate (default the board's 1489.45), e.g. 1378.125
/// to hear a phone -> board signal such as `tx --profile hijack` on a loopback.
extension RxCommand {
    func runHiJack() throws {
        try modem.checkHiJackCompatible()
        if squelch != DemodulatorConfiguration.defaultSquelch {
            throw CLIError.usage("--squelch does not apply to --profile hijack")
        }
        let ch = channel ?? 1
        guard (1...32).contains(ch) else { throw CLIError.usage("--channel must be 1 to 32") }
        let baud = modem.baud ?? HiJack.boardBaud
        do {
            _ = try HiJackDecoder(sampleRate: Double(audio.rate), nominalBaud: baud)
        } catch {
            throw CLIError.usage("\(error)")
        }
        StopSignal.install()
        var rx = try HiJackLiveReceiver(options: audio, channel: ch - 1, nominalBaud: baud, verbose: verbosity.verbose)
        var sink = ByteSink()
        // Bytes further apart than this start a new line with --hex: well past the default
        // 100-cell byte period, so one message stays on one line.
        let gapSamples = Int64(200 * rx.sampleRate / baud)
        var lastStart: Int64 = -1
        var worstLatency = 0.0
        let started = monotonicSeconds()
        rx.start()
        defer { rx.capture.stop() }
        func output(_ e: HiJackEvent, at now: Double) throws(CLIError) {
            do throws(AudioIOError) {
                if timestamps {
                    let latency = rx.latency(of: e, at: now)
                    worstLatency = max(worstLatency, latency)
                    let c = e.value >= 0x20 && e.value < 0x7f ? String(UnicodeScalar(e.value)) : "."
                    let time = Double(rx.endSample(of: e)) / rx.sampleRate
                    try sink.write(Array((cFormat("%.4f %.1f %02x ", time, latency * 1000, e.value) + c + "\n").utf8))
                } else if hex {
                    let gap = lastStart >= 0 && e.startSample - lastStart > gapSamples
                    try sink.write(Array(((gap ? "\n" : lastStart >= 0 ? " " : "") + cFormat("%02x", e.value)).utf8))
                } else {
                    try sink.write(e.value)
                }
                try sink.flush()
            } catch {
                throw CLIError(error)
            }
            lastStart = e.startSample
        }
        var delivered = 0
        loop: while !StopSignal.isRequested {
            if let duration, monotonicSeconds() - started >= duration { break }
            guard try rx.poll(timeout: 0.1) else { continue }
            let now = monotonicSeconds()
            for e in rx.events where e.kind == .byte {
                try output(e, at: now)
                delivered += 1
                if let count, delivered >= count { break loop }
            }
        }
        if count.map({ delivered < $0 }) ?? true {
            rx.stop()
            for e in rx.events where e.kind == .byte { try output(e, at: monotonicSeconds()) }
        }
        if hex && lastStart >= 0 { try? sink.write(Array("\n".utf8)) }
        do { try sink.flush() } catch { throw CLIError(error) }
        if verbosity.verbose {
            Diagnostics.info("rx: hijack, \(rx.counters)"
                + (timestamps ? ", worst latency \(Diagnostics.number(worstLatency * 1000)) ms" : "")
                + (StopSignal.isRequested ? " (interrupted)" : ""))
        }
    }
}
