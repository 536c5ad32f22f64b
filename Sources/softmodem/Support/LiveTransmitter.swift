#if canImport(Glibc)
import Glibc
#endif
import ModemALSA
import ModemDSP

/// Bytes -> burst encoder -> playback thread, for tx and term.
struct LiveTransmitter {
    let playback: PlaybackStream
    private var encoder: BurstEncoder
    private var samples: [Float]
    static let chunkBytes = 64
    private(set) var bytesSent = 0

    init(options: LiveAudioOptions, profile: ModemProfile, format: FrameFormat, amplitudeDB: Double,
         preamble: Int, postamble: Int, keepOpen: Bool, verbose: Bool) throws(CLIError) {
        do {
            playback = try PlaybackStream(device: options.device, sampleRate: options.rate, periodFrames: options.periodFrames,
                                          periods: LiveAudioOptions.periods, keepOpen: keepOpen)
        } catch {
            throw CLIError(error)
        }
        let modulator: FSKModulator
        do {
            modulator = try FSKModulator(profile: profile, sampleRate: Double(playback.sampleRate), amplitude: Float(pow(10, amplitudeDB / 20)))
        } catch {
            throw CLIError(error, context: options.device)
        }
        encoder = BurstEncoder(modulator: modulator, format: format, preambleBits: preamble, postambleBits: postamble)
        samples = [Float](repeating: 0, count: max(encoder.maxSamples(forBytes: Self.chunkBytes), encoder.maxSamplesForFinish))
        if verbose {
            let p = playback.pcm
            Diagnostics.info("\(p.device): playback \(p.sampleRate) Hz, \(p.channels) channel(s), \(p.format.rawValue), "
                + "period \(p.periodFrames) frames (\(Diagnostics.number(Double(p.periodFrames) * 1000 / Double(p.sampleRate))) ms), "
                + "buffer \(p.bufferFrames) frames\(keepOpen ? ", kept open" : "")")
        }
    }

    func start() { playback.start() }

    /// Queues `bytes` as characters of the current burst (opening one if needed). After a
    /// stop signal the rest is dropped, so SIGINT ends a long send within a ring's length.
    mutating func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(CLIError) {
        var i = 0
        while i < bytes.count && !StopSignal.isRequested {
            let part = UnsafeBufferPointer(rebasing: bytes[i..<min(i + Self.chunkBytes, bytes.count)])
            let n = samples.withUnsafeMutableBufferPointer { encoder.encode(part, into: $0.baseAddress!) }
            try queue(n)
            i += part.count
            bytesSent += part.count
        }
    }

    /// Closes the burst with its postamble.
    mutating func endBurst() throws(CLIError) {
        let n = samples.withUnsafeMutableBufferPointer { encoder.finishBurst(into: $0.baseAddress!) }
        try queue(n)
        playback.endBurst()
    }

    /// Lets everything queued play, then stops.
    mutating func finish() throws(CLIError) {
        try endBurst()
        do { try playback.finish() } catch { throw CLIError(error) }
    }

    private func queue(_ n: Int) throws(CLIError) {
        guard n > 0 else { return }
        do {
            try samples.withUnsafeBufferPointer { b throws(ALSAError) in try playback.write(UnsafeBufferPointer(rebasing: b[0..<n])) }
        } catch {
            throw CLIError(error)
        }
    }

    var counters: String {
        "\(bytesSent) bytes sent, \(playback.playedFrames) frames played, \(playback.silenceFrames) frames of filler silence, \(playback.underruns) underruns recovered"
    }
}
