import ModemAudioIO
import ModemDSP
import ModemSpectrum

/// Drives a sample source through the demodulator: picks the channel carrying the signal,
/// writes decoded bytes to a sink, and reports bursts on stderr when verbose.
///
/// Channel choice: with `channel` nil and several channels, every channel is demodulated for
/// the first second after the signal appears, and the channel that decoded the most
/// characters (then the strongest one) is kept; the others are dropped. Memory stays bounded.
struct DecodePipeline {
    var configuration: DemodulatorConfiguration
    var channel: Int?
    var verbose: Bool
    var trace = false
    /// Follow a sender's measured tones between bursts (FFTW, see ToneAdapter).
    var adapt = true
    /// When set, decoded bytes go here (with their time in seconds) instead of the sink.
    var onByte: ((UInt8, Double) throws(CLIError) -> Void)? = nil

    struct Result {
        var bytes = 0
        var framingErrors = 0
        var parityErrors = 0
        var frames: Int64 = 0
        var peak: Float = 0
        var bursts = 0
    }

    func run(_ source: inout some SampleSource, into sink: inout ByteSink) throws(CLIError) -> Result {
        var config = configuration
        config.sampleRate = source.sampleRate
        let channels = source.channels
        try InputChecks.channel(channel, in: source)
        var demods: [FSKDemodulator] = []
        do {
            let count = channel == nil ? channels : 1
            for _ in 0..<count { demods.append(try FSKDemodulator(config)) }
        } catch {
            throw CLIError(error, context: source.name)
        }
        var candidates = Array(0..<demods.count)  // demodulator index -> channel index
        if let channel { candidates = [channel] }
        var chosen: Int? = demods.count == 1 ? 0 : nil
        var pending = [[DemodulatorEvent]](repeating: [], count: demods.count)
        var decisionAt: Int64?  // frame index at which to choose a channel

        var result = Result()
        // -v: FFTW measurement of each burst's real tones, one analyzer per candidate channel.
        let spectra = verbose ? demods.indices.map { _ in BurstSpectrumAnalyzer(profile: config.profile, sampleRate: config.sampleRate) } : []
        // Off-frequency senders: measure each burst's tones, retune between bursts.
        let adapters = self.adapt ? demods.indices.map { _ in ToneAdapter(profile: config.profile, sampleRate: config.sampleRate) } : []
        func retune(_ d: Int, _ samples: UnsafeBufferPointer<Float>, _ events: [DemodulatorEvent]) {
            guard d < adapters.count, let tones = adapters[d].observe(samples, inBurst: demods[d].isInBurst, events: events) else { return }
            guard (try? demods[d].retune(mark: tones.mark, space: tones.space)) != nil else { return }
            if verbose {
                Diagnostics.info("retuned to the sender's measured tones: mark \(Diagnostics.number(tones.mark, 1)) Hz, space \(Diagnostics.number(tones.space, 1)) Hz")
            }
        }
        var tracker = BurstTracker(sampleRate: config.sampleRate, baud: config.profile.baud)
        // Files are read in large pieces (fewer system calls) and demodulated in the same
        // small steps as a stream, so the burst-by-burst tone adaptation and the channel
        // choice see the same steps whatever the source.
        let framesPerStep = 4096
        let framesPerRead = source.isStream ? framesPerStep : 16 * framesPerStep
        // A mono 16-bit file is demodulated from its integers (FSKDemodulator's Int16 path:
        // the same result to the bit, without a float conversion pass); floats are made only
        // for a step the tone adapter or the -v analyzer will read.
        let pcm16 = channels == 1 ? (source as? SoundFileReader).flatMap { $0.isPCM16 ? $0 : nil } : nil
        var interleaved = [Float](repeating: 0, count: pcm16 == nil ? framesPerRead * channels : 0)
        var shorts = UnsafeBufferPointer<Int16>(start: nil, count: 0)  // the reader's buffer
        var mono = [Float](repeating: 0, count: framesPerStep)
        var events: [DemodulatorEvent] = []
        events.reserveCapacity(1024)

        func emit(_ list: [DemodulatorEvent], _ sink: inout ByteSink) throws(CLIError) {
            for e in list {
                if trace {
                    Diagnostics.info("  \(Diagnostics.seconds(e.startSample, rate: config.sampleRate)) \(e.kind) 0x\(String(e.value, radix: 16)) "
                        + "Eb/N0 \(Diagnostics.number(e.ebN0)) dB level \(Diagnostics.number(decibels(power: e.signalPower * 2))) dBFS "
                        + "mark \(Diagnostics.number(e.markFrequency, 0)) space \(Diagnostics.number(e.spaceFrequency, 0))")
                }
                switch e.kind {
                case .byte:
                    result.bytes += 1
                    if let onByte {
                        try onByte(e.value, Double(e.endSample) / config.sampleRate)
                    } else {
                        do { try sink.write(e.value) } catch { throw CLIError(error) }
                    }
                case .framingError: result.framingErrors += 1
                case .parityError: result.parityErrors += 1
                }
                // Burst summaries are for -v only (and cost a logarithm per character).
                if verbose, let done = tracker.add(e) { report(done) }
            }
        }
        func report(_ burst: BurstTracker.Summary) {
            result.bursts += 1
            guard verbose else { return }
            let rate = config.sampleRate
            let fullBandSNR = burst.ebN0 - decibels(power: rate / 2 / config.profile.baud)
            Diagnostics.info("burst at \(Diagnostics.seconds(burst.startSample, rate: rate)): \(burst.bytes) bytes, "
                + "level \(Diagnostics.number(decibels(power: burst.signalPower * 2))) dBFS peak, "
                + "SNR \(Diagnostics.number(fullBandSNR)) dB (Eb/N0 \(Diagnostics.number(burst.ebN0)) dB), "
                + "mark \(Diagnostics.number(burst.markFrequency, 0)) Hz, space \(Diagnostics.number(burst.spaceFrequency, 0)) Hz, "
                + "\(burst.framingErrors) framing errors\(burst.parityErrors > 0 ? ", \(burst.parityErrors) parity errors" : "")"
                + spectrumReport())
        }
        func spectrumReport() -> String {
            guard let chosen, chosen < spectra.count else { return "" }
            let (mark, space) = spectra[chosen].measurement()
            spectra[chosen].reset()
            func tone(_ t: ToneMeasurement?) -> String {
                t.map { "\(Diagnostics.number($0.frequency, 1)) Hz at \(Diagnostics.number($0.levelDBFS)) dBFS" } ?? "not found"
            }
            return "; spectrum: mark \(tone(mark)), space \(tone(space))"
        }

        while true {
            let frames: Int
            do {
                if let pcm16 {
                    shorts = try pcm16.readPCM16(maxFrames: framesPerRead)
                    frames = shorts.count
                } else {
                    frames = try interleaved.withUnsafeMutableBufferPointer { buffer throws(AudioIOError) in try source.read(into: buffer) }
                }
            } catch {
                throw CLIError(error)
            }
            if frames == 0 { break }
            var step = 0
            while step < frames {
                let first = step, count = min(framesPerStep, frames - step)
                step += count
                // Only "is anything not silent" matters (an all-zero file is an error): stop
                // looking once a non-zero sample has been seen.
                if result.peak == 0 {
                    var peak: Float = 0
                    if pcm16 != nil {
                        var largest: Int32 = 0
                        for i in first..<(first + count) { largest = max(largest, abs(Int32(shorts[i]))) }
                        peak = Float(largest) * (1.0 / 32768)
                    } else {
                        interleaved.withUnsafeBufferPointer { b in
                            for i in (first * channels)..<((first + count) * channels) { let a = abs(b[i]); peak = a > peak ? a : peak }
                        }
                    }
                    if !peak.isNaN && peak > result.peak { result.peak = peak }
                }
                if decisionAt == nil && result.peak > 0 {
                    decisionAt = result.frames + Int64(config.sampleRate)
                }
                for (d, ch) in candidates.enumerated() where chosen == nil || chosen == d {
                    events.removeAll(keepingCapacity: true)
                    if pcm16 != nil {
                        demods[d].process(UnsafeBufferPointer(rebasing: shorts[first..<(first + count)]), into: &events)
                        let needed = d < spectra.count || (d < adapters.count && demods[d].isInBurst && adapters[d].wantsSamples)
                        if needed {
                            mono.withUnsafeMutableBufferPointer { convertPCM16(UnsafeBufferPointer(rebasing: shorts[first..<(first + count)]), into: $0.baseAddress!) }
                        }
                        mono.withUnsafeBufferPointer { all in
                            // Without floats the adapter still sees the burst state and events.
                            let part = UnsafeBufferPointer(rebasing: all[0..<(needed ? count : 0)])
                            retune(d, part, events)
                            if d < spectra.count { spectra[d].process(part) }
                        }
                    } else if channels == 1 {
                        interleaved.withUnsafeBufferPointer { all in
                            let part = UnsafeBufferPointer(rebasing: all[first..<(first + count)])
                            demods[d].process(part, into: &events)
                            retune(d, part, events)
                            if d < spectra.count { spectra[d].process(part) }
                        }
                    } else {
                        for i in 0..<count { mono[i] = interleaved[(first + i) * channels + ch] }
                        mono.withUnsafeBufferPointer { all in
                            let part = UnsafeBufferPointer(rebasing: all[0..<count])
                            demods[d].process(part, into: &events)
                            retune(d, part, events)
                            if d < spectra.count { spectra[d].process(part) }
                        }
                    }
                    if chosen == nil { pending[d].append(contentsOf: events) } else { try emit(events, &sink) }
                }
                result.frames += Int64(count)
                if chosen == nil, let at = decisionAt, result.frames >= at {
                    chosen = pick(pending)
                    try emit(pending[chosen!], &sink)
                    if verbose { Diagnostics.info("\(source.name): decoding channel \(candidates[chosen!] + 1) of \(channels)") }
                    pending = []
                }
            }
            if chosen != nil {
                do { try sink.flush() } catch { throw CLIError(error) }
            }
        }
        events.removeAll(keepingCapacity: true)
        if chosen == nil {
            // Short input: finish every channel, then choose.
            for d in demods.indices { demods[d].flush(into: &pending[d]) }
            chosen = pick(pending)
            try emit(pending[chosen!], &sink)
        } else {
            demods[chosen!].flush(into: &events)
            try emit(events, &sink)
        }
        if verbose, let last = tracker.finish(at: .max, force: true) { report(last) }
        do { try sink.flush() } catch { throw CLIError(error) }
        return result
    }

    /// The channel whose demodulator found the most characters, then the strongest signal.
    private func pick(_ pending: [[DemodulatorEvent]]) -> Int {
        var best = 0
        var bestKey = (-1, -1.0)
        for (i, list) in pending.enumerated() {
            let bytes = list.filter { $0.kind == .byte }
            let key = (bytes.count, bytes.reduce(0) { $0 + $1.signalPower })
            if key > bestKey { bestKey = key; best = i }
        }
        return best
    }
}
