public import ModemAudioIO
import ModemDSP
import ModemFraming
import ModemSpectrum

/// `decode`'s work on a source, from the library pieces the command line uses: every
/// channel demodulated (the command line keeps one after the first second; here all are
/// kept, which covers more), the tone adapter retuning between bursts, the `-v` spectrum
/// measured at each burst's end, and the decoded bytes parsed as `protocol`.
///
/// Errors are the expected outcome for most inputs and are ignored; only a crash, a trap
/// or a sanitizer report is a finding.
public func decodeLikeCLI(_ source: inout some SampleSource, profile: ModemProfile, protocol: ByteProtocol) {
    let channels = source.channels
    guard channels > 0, channels <= 64 else { return }
    let config = DemodulatorConfiguration(profile: profile, sampleRate: source.sampleRate)
    var demods: [FSKDemodulator] = []
    for _ in 0..<channels {
        guard let d = try? FSKDemodulator(config) else { return }  // rate out of range: decode refuses too
        demods.append(d)
    }
    let spectra = (0..<channels).map { _ in BurstSpectrumAnalyzer(profile: profile, sampleRate: config.sampleRate) }
    let adapters = (0..<channels).map { _ in ToneAdapter(profile: profile, sampleRate: config.sampleRate) }
    var parser = `protocol`.makeParser()
    let framesPerStep = 4096
    var interleaved = [Float](repeating: 0, count: framesPerStep * channels)
    var mono = [Float](repeating: 0, count: framesPerStep)
    var events: [ModemEvent] = []
    var time = 0.0
    // A bound on the work per input: a header may claim hours of audio.
    var budget = 4_000_000
    let pcm16 = channels == 1 ? (source as? SoundFileReader).flatMap { $0.isPCM16 ? $0 : nil } : nil

    func consume(_ d: Int, _ part: UnsafeBufferPointer<Float>) {
        let wasInBurst = demods[d].isInBurst
        demods[d].process(part, into: &events)
        if let tones = adapters[d].observe(part, inBurst: demods[d].isInBurst, events: events) {
            _ = try? demods[d].retune(mark: tones.mark, space: tones.space)
        }
        spectra[d].process(part)
        if wasInBurst && !demods[d].isInBurst {
            _ = spectra[d].measurement()
            _ = spectra[d].suggestedProfile()
            spectra[d].reset()
        }
        for e in events where e.kind == .byte {
            time = Double(e.endSample) / config.sampleRate
            _ = parser.pushAny(e.value, at: time)
        }
        events.removeAll(keepingCapacity: true)
    }

    while budget > 0 {
        let frames: Int
        if let pcm16 {
            guard let shorts = try? pcm16.readPCM16(maxFrames: framesPerStep), shorts.count > 0 else { break }
            frames = shorts.count
            mono.withUnsafeMutableBufferPointer { convertPCM16(shorts, into: $0.baseAddress!) }
            // The command line demodulates the integers themselves; do both.
            demods[0].process(shorts, into: &events)
            events.removeAll(keepingCapacity: true)
            mono.withUnsafeBufferPointer { consume(0, UnsafeBufferPointer(rebasing: $0[0..<frames])) }
        } else {
            let n = interleaved.withUnsafeMutableBufferPointer { b in (try? source.read(into: b)) ?? 0 }
            guard n > 0 else { break }
            frames = n
            for ch in 0..<channels {
                for i in 0..<frames { mono[i] = interleaved[i * channels + ch] }
                mono.withUnsafeBufferPointer { consume(ch, UnsafeBufferPointer(rebasing: $0[0..<frames])) }
            }
        }
        budget -= frames * channels
    }
    for d in demods.indices {
        demods[d].flush(into: &events)
        for e in events where e.kind == .byte { _ = parser.pushAny(e.value, at: time) }
        events.removeAll(keepingCapacity: true)
        _ = spectra[d].measurement()
    }
    _ = parser.advanceAny(to: time + 10)
    if let reader = source as? SoundFileReader { _ = reader.truncation?.description }
}

/// The profiles a fuzz input may pick.
public let fuzzProfiles: [ModemProfile] = ModemProfile.builtIn
