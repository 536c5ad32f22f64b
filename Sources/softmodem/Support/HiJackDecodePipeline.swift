import ModemAudioIO
import ModemDSP

/// Drives a sample source through `HiJackDecoder`s: one per channel until a channel yields
/// a good byte, then that channel only. Decoded bytes go to the sink; with `trace`, every
/// frame (good or rejected) is reported on stderr.
struct HiJackDecodePipeline {
    var channel: Int?
    var trace = false
    /// When set, decoded bytes go here (with their start time in seconds) instead of the sink.
    var onByte: ((UInt8, Double) throws(CLIError) -> Void)? = nil

    struct Result {
        var bytes = 0
        var parityErrors = 0
        var framingErrors = 0
        var frames: Int64 = 0
        var peak: Float = 0
        /// Samples that were NaN or infinite (decoded as 0).
        var nonFinite: Int64 = 0
        var chosenChannel: Int?
        var inverted: Bool?
        var baud: Double?
    }

    func run(_ source: inout some SampleSource, into sink: inout ByteSink) throws(CLIError) -> Result {
        let channels = source.channels
        let rate = source.sampleRate
        try InputChecks.channel(channel, in: source)
        let candidates = channel.map { [$0] } ?? Array(0..<channels)
        var decoders: [HiJackDecoder] = []
        do {
            for _ in candidates { decoders.append(try HiJackDecoder(sampleRate: rate)) }
        } catch {
            throw .runtime("\(source.name): \(error)")
        }
        var chosen: Int? = decoders.count == 1 ? 0 : nil
        var pending = [[HiJackEvent]](repeating: [], count: decoders.count)
        var result = Result()
        let framesPerRead = 4096
        var interleaved = [Float](repeating: 0, count: framesPerRead * channels)
        var mono = [Float](repeating: 0, count: framesPerRead)
        var events: [HiJackEvent] = []
        events.reserveCapacity(256)

        func emit(_ list: [HiJackEvent], _ sink: inout ByteSink) throws(CLIError) {
            for e in list {
                if trace {
                    Diagnostics.info("  \(Diagnostics.seconds(e.startSample, rate: rate)) \(e.kind) 0x\(String(e.value, radix: 16)) "
                        + "\(Diagnostics.number(e.baud, 1)) baud\(e.inverted ? " inverted" : "")")
                }
                switch e.kind {
                case .byte:
                    result.bytes += 1
                    result.inverted = e.inverted
                    result.baud = e.baud
                    if let onByte {
                        try onByte(e.value, Double(e.startSample) / rate)
                    } else {
                        do { try sink.write(e.value) } catch { throw CLIError(error) }
                    }
                case .parityError: result.parityErrors += 1
                case .framingError: result.framingErrors += 1
                }
            }
        }

        while true {
            let frames: Int
            do {
                frames = try interleaved.withUnsafeMutableBufferPointer { buffer throws(AudioIOError) in try source.read(into: buffer) }
            } catch {
                throw CLIError(error)
            }
            if frames == 0 { break }
            interleaved.withUnsafeBufferPointer { b in
                var peak = result.peak
                var bad: Int64 = 0
                for i in 0..<(frames * channels) {
                    if b[i].isFinite { peak = max(peak, abs(b[i])) } else { bad += 1 }
                }
                result.peak = peak
                result.nonFinite += bad
            }
            for d in decoders.indices where chosen == nil || chosen == d {
                events.removeAll(keepingCapacity: true)
                if channels == 1 {
                    interleaved.withUnsafeBufferPointer { decoders[d].process(UnsafeBufferPointer(rebasing: $0[0..<frames]), into: &events) }
                } else {
                    let ch = candidates[d]
                    for i in 0..<frames { mono[i] = interleaved[i * channels + ch] }
                    mono.withUnsafeBufferPointer { decoders[d].process(UnsafeBufferPointer(rebasing: $0[0..<frames]), into: &events) }
                }
                if chosen != nil {
                    try emit(events, &sink)
                } else {
                    pending[d].append(contentsOf: events)
                    if events.contains(where: { $0.kind == .byte }) { chosen = d }
                }
            }
            if chosen == nil {
                // Keep memory bounded while no channel has a good byte: only the rejects
                // would pile up, and they are only counted.
                for d in pending.indices where pending[d].count > 64 { pending[d].removeFirst(pending[d].count - 64) }
            } else if !pending.isEmpty {
                try emit(pending[chosen!], &sink)
                pending = []
            }
            result.frames += Int64(frames)
            do { try sink.flush() } catch { throw CLIError(error) }
        }
        events.removeAll(keepingCapacity: true)
        if let c = chosen {
            decoders[c].flush(into: &events)
            try emit(events, &sink)
        } else if !decoders.isEmpty {
            // No channel decoded anything: report the first channel's rejects.
            decoders[0].flush(into: &pending[0])
            try emit(pending[0], &sink)
        }
        result.chosenChannel = chosen.map { candidates[$0] }
        do { try sink.flush() } catch { throw CLIError(error) }
        return result
    }
}
