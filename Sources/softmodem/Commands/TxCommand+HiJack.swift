#if canImport(Glibc)
import Glibc
#endif
import ModemDSP

/// `softmodem tx --profile hijack`: bytes in, HiJack phone -> board audio out, live.
///
/// Stereo on one stream kept open throughout: left = Manchester data (idle 1s between
/// bytes), right = the power tone, which never stops while sending. `--preamble` idle cells
/// play before the first byte (at least 4); the command exits when the last byte's cells
/// have played, after a short tail of idle line and power.
extension TxCommand {
    /// Idle line and power after the last byte, so the board is still powered while it
    /// delivers the parity edge and the device does not cut the final cells.
    static let hiJackTail = 0.2

    func runHiJack() throws {
        try modem.checkHiJackCompatible()
        guard amplitude.isFinite, (-120...0).contains(amplitude) else { throw CLIError(ModemConfigurationError.invalidAmplitude(amplitude)) }
        guard (0...10_000).contains(preamble), (0...10_000).contains(postamble) else {
            throw CLIError.usage("--preamble and --postamble must be 0 to 10000 bits")
        }
        let baud = modem.baud ?? HiJack.hostBaud
        let bytePeriod = hijack.bytePeriod ?? HiJack.defaultBytePeriod
        let level = Float(pow(10, amplitude / 20))
        let invert = hijack.invert
        // Bad values are usage errors before any device is opened (checked again at the
        // rate the device grants).
        do {
            _ = try HiJackEncoder(sampleRate: Double(audio.rate), baud: baud, bytePeriod: bytePeriod, amplitude: level, invert: invert)
        } catch {
            throw CLIError.usage("\(error)")
        }
        _ = try power.tone(sampleRate: Double(audio.rate))
        StopSignal.install()
        var tx = try HiJackLiveTransmitter(options: audio, encoder: { rate throws(CLIError) in
            do {
                return try HiJackEncoder(sampleRate: rate, baud: baud, bytePeriod: bytePeriod, amplitude: level, invert: invert)
            } catch {
                throw .usage("\(error)")
            }
        }, power: power, verbose: verbosity.verbose)
        tx.start()
        let cellFrames = Double(tx.playback.sampleRate) / baud
        try tx.render(Int(Double(max(preamble, HiJack.minimumIdleBits)) * cellFrames))
        if let text {
            try Array(text.utf8).withUnsafeBufferPointer { b throws(CLIError) in try tx.send(b) }
        } else {
            try pumpHiJack(&tx)
        }
        try tx.finish(tail: max(Self.hiJackTail, Double(postamble) * cellFrames / Double(tx.playback.sampleRate)))
        if verbosity.verbose { Diagnostics.info("tx: \(tx.counters)\(StopSignal.isRequested ? " (interrupted)" : "")") }
    }

    /// Reads stdin until EOF or a stop signal, keeping the line and power flowing meanwhile.
    private func pumpHiJack(_ tx: inout HiJackLiveTransmitter) throws(CLIError) {
        var input = [UInt8](repeating: 0, count: 4096)
        while !StopSignal.isRequested {
            try tx.pump()
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&p, 1, 20)
            if ready == 0 { continue }
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
