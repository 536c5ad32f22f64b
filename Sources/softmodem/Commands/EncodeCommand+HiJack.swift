import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import ModemDSP

/// `softmodem encode --profile hijack`: bytes in, HiJack phone -> board audio out.
///
/// Always stereo: left = Manchester data, right = the power tone. Layout in time:
/// `--silence` seconds of power tone alone (the board powers up), `--preamble` idle 1s
/// (at least 4), each byte as one frame padded with idle 1s to `--byte-period` cells,
/// `--postamble` idle 1s, then `--silence` seconds of power tone alone again.
extension EncodeCommand {
    func runHiJack() throws {
        try modem.checkHiJackCompatible()
        if messages.json { throw CLIError.usage("--json applies to decoding") }
        let message = try messages.resolved().map { p throws(CLIError) in try fields.encode(p, text: text) }
        guard amplitude.isFinite, amplitude <= 0, amplitude >= -120 else {
            throw CLIError(ModemConfigurationError.invalidAmplitude(amplitude))
        }
        guard (0...10_000).contains(preamble), (0...10_000).contains(postamble) else {
            throw CLIError.usage("--preamble and --postamble must be 0 to 10000 bits")
        }
        guard silence.isFinite, silence >= 0, silence <= 3600 else {
            throw CLIError.usage("--silence must be 0 to 3600 seconds")
        }
        guard channels.lowercased() == "mono" || channels.lowercased() == "both" else {
            throw CLIError.usage("--profile hijack always writes stereo (left data, right power); --channels does not apply")
        }
        guard rate.isFinite, rate == rate.rounded() else { throw CLIError.usage("--rate must be a whole number of hertz") }
        var encoder: HiJackEncoder
        do {
            encoder = try HiJackEncoder(sampleRate: rate, baud: modem.baud ?? HiJack.hostBaud,
                                        bytePeriod: hijack.bytePeriod ?? HiJack.defaultBytePeriod,
                                        amplitude: Float(pow(10, amplitude / 20)), invert: hijack.invert)
        } catch {
            throw CLIError.usage("\(error)")
        }
        var tone = try power.tone(sampleRate: rate)
        let destination = output ?? "-"
        if destination == "-" && Diagnostics.stdoutIsTerminal {
            throw CLIError.usage("refusing to write audio to a terminal; use -o FILE or a pipe")
        }
        var sink = try AudioSink(path: destination, sampleRate: Int(rate), layout: .both, float: float)

        let bytesPerChunk = 16
        let capacity = max(encoder.maxSamples(forBytes: bytesPerChunk), encoder.maxSamples(forIdleBits: 10_000), Int(rate) / 10)
        var data = [Float](repeating: 0, count: capacity)
        var frames = [Float](repeating: 0, count: 2 * capacity)
        /// Interleaves `count` data samples with the power tone and writes them.
        func emit(_ count: Int) throws {
            guard count > 0 else { return }
            frames.withUnsafeMutableBufferPointer { f in
                data.withUnsafeBufferPointer { d in
                    for i in 0..<count { f[2 * i] = d[i] }
                }
                tone.render(into: f.baseAddress! + 1, count: count, stride: 2)
            }
            try frames.withUnsafeBufferPointer { try sink.writeInterleaved(UnsafeBufferPointer(rebasing: $0[0..<(2 * count)])) }
        }
        func emitPowerOnly() throws {
            var left = Int(silence * rate)
            while left > 0 {
                let n = min(left, capacity)
                for i in 0..<n { data[i] = 0 }
                try emit(n)
                left -= n
            }
        }
        func encode(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            var i = 0
            while i < bytes.count {
                let part = UnsafeBufferPointer(rebasing: bytes[i..<min(i + bytesPerChunk, bytes.count)])
                let n = data.withUnsafeMutableBufferPointer { encoder.encode(part, into: $0.baseAddress!) }
                try emit(n)
                i += part.count
            }
        }

        try emitPowerOnly()
        // The board needs at least 4 idle 1s before a start bit.
        try emit(data.withUnsafeMutableBufferPointer { encoder.idle(bits: max(preamble, HiJack.minimumIdleBits), into: $0.baseAddress!) })
        var total = 0
        if let bytes = message ?? text.map({ Array($0.utf8) }) {
            try bytes.withUnsafeBufferPointer { try encode($0) }
            total = bytes.count
        } else {
            var input = [UInt8](repeating: 0, count: 256)
            while true {
                let got = input.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw CLIError.runtime("error reading stdin: \(String(cString: strerror(errno)))")
                }
                if got == 0 { break }
                total += got
                try input.withUnsafeBufferPointer { try encode(UnsafeBufferPointer(rebasing: $0[0..<got])) }
            }
        }
        try emit(data.withUnsafeMutableBufferPointer { encoder.idle(bits: postamble, into: $0.baseAddress!) })
        try emitPowerOnly()
        try sink.finish()
        if verbosity.verbose {
            Diagnostics.info("encoded \(total) bytes as hijack, \(Diagnostics.number(encoder.baud, 3)) baud, \(encoder.bytePeriod) cells per byte"
                + "\(encoder.invert ? ", inverted" : ""), \(Int(rate)) Hz stereo, data peak \(amplitude) dBFS, "
                + "power tone \(Diagnostics.number(tone.frequency, 0)) Hz at \(Diagnostics.number(Double(tone.amplitude), 2)) -> \(destination == "-" ? "stdout" : destination)")
        }
        if total == 0 { Diagnostics.warning("no input bytes: wrote idle and power tone only") }
    }
}
