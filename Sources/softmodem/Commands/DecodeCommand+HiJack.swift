import ModemAudioIO
import ModemDSP

/// `softmodem decode --profile hijack`: HiJack board -> phone recordings to bytes.
extension DecodeCommand {
    func runHiJack() throws {
        try modem.checkHiJackCompatible()
        if squelch != DemodulatorConfiguration.defaultSquelch {
            throw CLIError.usage("--squelch does not apply to --profile hijack")
        }
        if modem.baud != nil {
            throw CLIError.usage("--baud does not apply to decode --profile hijack: the decoder tracks 1300-1700 baud by itself")
        }
        let rawFormat = RawSampleFormat(rawValue: format.lowercased())
        if raw {
            guard rawFormat != nil else {
                throw CLIError.usage("unknown raw format '\(format)'; use one of: \(RawSampleFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let rate else { throw CLIError.usage("--raw needs --rate") }
            guard rate.isFinite, (8_000...192_000).contains(rate) else {
                throw CLIError.usage("--rate \(rate) is outside 8000-192000 Hz")
            }
        }
        var pipeline = HiJackDecodePipeline(channel: channel.map { $0 - 1 }, trace: verbosity.traceCharacters)
        let printer = try messages.resolved().map { MessagePrinter(proto: $0, json: messages.json) }
        if let printer { pipeline.onByte = { b, t throws(CLIError) in try printer.push(b, at: t) } }
        var sink = ByteSink()
        let inputs = files.isEmpty ? ["-"] : files
        if inputs.filter({ $0 == "-" }).count > 1 { throw CLIError.usage("stdin (-) can be read only once") }
        for path in inputs {
            try decodeHiJack(path, pipeline: pipeline, rawFormat: rawFormat, sink: &sink)
        }
        try printer?.finish()
    }

    private func decodeHiJack(_ path: String, pipeline: HiJackDecodePipeline, rawFormat: RawSampleFormat?, sink: inout ByteSink) throws(CLIError) {
        var truncation: AudioIOError?
        let result: HiJackDecodePipeline.Result
        let name: String
        let sampleRate: Double
        do {
            if raw, let rawFormat, let rate {
                var source = try RawPCMReader(path: path, format: rawFormat, sampleRate: rate, channels: channels)
                name = source.name
                sampleRate = rate
                result = try pipeline.run(&source, into: &sink)
            } else {
                var source = try SoundFileReader(path: path)
                name = source.name
                sampleRate = source.sampleRate
                guard (8_000...192_000).contains(sampleRate) else {
                    throw CLIError.runtime("\(name): sample rate \(Int(sampleRate)) Hz is outside 8000-192000 Hz")
                }
                if verbosity.verbose {
                    Diagnostics.info("\(name): \(source.formatDescription), \(Int(sampleRate)) Hz, \(source.channels) channel(s)")
                }
                result = try pipeline.run(&source, into: &sink)
                truncation = source.truncation
            }
        } catch let error as AudioIOError {
            throw CLIError(error)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .runtime("\(error)")
        }
        if verbosity.verbose {
            var line = "\(name): hijack, \(result.bytes) bytes, \(result.parityErrors) parity errors, \(result.framingErrors) framing errors"
            if let c = result.chosenChannel { line += ", channel \(c + 1)" }
            if let baud = result.baud { line += ", \(Diagnostics.number(baud, 1)) baud" }
            if let inverted = result.inverted { line += inverted ? ", inverted line" : ", normal polarity" }
            if result.nonFinite > 0 { line += ", \(result.nonFinite) NaN/infinite samples" }
            Diagnostics.info(line)
        }
        try InputChecks.decoded(name, frames: result.frames, peak: result.peak, nonFinite: result.nonFinite, truncation: truncation)
    }
}
