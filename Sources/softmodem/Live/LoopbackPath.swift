import ModemALSA
import ModemCalibration

/// The live path of `softmodem loopback`: a playback stream kept open and a capture stream,
/// both running from ``start()`` to ``finish()``. ``play(_:progress:)`` queues a timeline
/// and returns what the capture recorded from the moment it was queued, as long as the
/// timeline.
struct LoopbackPath {
    let playback: PlaybackStream
    private var reader: CaptureReader
    private var scratch: [Float]

    init(audio: LiveAudioOptions, playbackDevice: String, captureDevice: String, verbose: Bool) throws(CLIError) {
        do {
            playback = try PlaybackStream(device: playbackDevice, sampleRate: audio.rate, periodFrames: audio.periodFrames,
                                          periods: LiveAudioOptions.periods, keepOpen: true, leadIn: 0, ringSeconds: 0.25)
            let capture = try CaptureStream(device: captureDevice, sampleRate: audio.rate, periodFrames: audio.periodFrames,
                                            periods: LiveAudioOptions.periods)
            reader = CaptureReader(capture: capture)
        } catch {
            throw CLIError(error)
        }
        scratch = [Float](repeating: 0, count: 1024)
        if verbose {
            let p = playback.pcm
            Diagnostics.info("\(p.device): playback \(p.sampleRate) Hz, \(p.channels) channel(s), \(p.format.rawValue), "
                + "period \(p.periodFrames) frames, buffer \(p.bufferFrames) frames")
            Diagnostics.info(reader.description())
        }
    }

    var sampleRate: Double { reader.sampleRate }

    func start() {
        reader.capture.start()
        playback.start()
    }

    func finish() {
        playback.abort()
        reader.capture.stop()
    }

    /// Plays `signal` while capturing; `progress` gets the seconds of it played so far.
    mutating func play(_ signal: [Float], progress: (Double) -> Void) throws(CLIError) -> [Float] {
        // What the capture holds from before is not part of the answer.
        while try reader.read(timeout: 0).frames > 0 {}
        var captured: [Float] = []
        captured.reserveCapacity(signal.count + reader.buffer.count)
        var written = 0
        let fillerBefore = playback.silenceFrames
        var gap = false
        let started = monotonicSeconds()
        let limit = Double(signal.count) / sampleRate + 10
        while captured.count < signal.count {
            if StopSignal.isRequested { throw .runtime("loopback: interrupted") }
            if written < signal.count {
                let end = min(signal.count, written + scratch.count)
                do {
                    try signal.withUnsafeBufferPointer { s throws(ALSAError) in
                        try playback.write(UnsafeBufferPointer(rebasing: s[written..<end]))
                    }
                } catch {
                    throw CLIError(error)
                }
                written = end
                // Filler silence while we still had samples to give is a hole in the timeline.
                if playback.silenceFrames > fillerBefore + 2 * playback.pcm.periodFrames { gap = true }
            }
            let (n, overran) = try reader.read(timeout: written < signal.count ? 0 : 0.05)
            if overran { gap = true }
            captured.append(contentsOf: reader.buffer[0..<n])
            progress(min(Double(captured.count), Double(written)) / sampleRate)
            if monotonicSeconds() - started > limit {
                throw .runtime("\(reader.capture.pcm.device): the capture stopped delivering audio")
            }
        }
        if gap {
            Diagnostics.warning("the audio stream had a gap during the test (overrun or underrun): results may be off; try --latency 80")
        }
        return Array(captured.prefix(signal.count))
    }
}
