import ModemALSA
import ModemCalibration
import ModemLive

/// The live path of `softmodem loopback`: a playback stream kept open and a capture stream,
/// both running from ``start()`` to ``finish()``. ``play(_:progress:)`` queues a timeline
/// and returns what the capture recorded from the moment it was queued, as long as the
/// timeline. A gap in either stream (an overrun or underrun on a busy machine) breaks the
/// timeline: that part is played again, once, and a second gap is an error.
struct LoopbackPath {
    let playback: PlaybackStream
    let capture: CaptureStream
    private var buffer: [Float]

    init(audio: LiveAudioOptions, playbackDevice: String, captureDevice: String, verbose: Bool) throws(CLIError) {
        do {
            let rate = audio.requestedRate(.playback, device: playbackDevice)
            playback = try PlaybackStream(
                device: playbackDevice, sampleRate: rate,
                periodFrames: audio.periodFrames(at: rate, device: playbackDevice),
                periods: LiveAudioOptions.periods, keepOpen: true, leadIn: 0, ringSeconds: 1, limit: audio.openLimit,
                exactRate: audio.rateIsExact)
            capture = try CaptureStream(
                device: captureDevice, sampleRate: playback.sampleRate,
                periodFrames: audio.periodFrames(at: playback.sampleRate, device: captureDevice),
                periods: LiveAudioOptions.periods, ringSeconds: 4, limit: audio.openLimit)
        } catch {
            throw CLIError(error)
        }
        buffer = [Float](repeating: 0, count: 1024)
        if verbose {
            Diagnostics.info(Self.describe(playback.pcm, .playback))
            Diagnostics.info(Self.describe(capture.pcm, .capture))
        }
    }

    var sampleRate: Double { Double(capture.sampleRate) }

    func start() {
        capture.start()
        playback.start()
    }

    func finish() {
        playback.abort()
        capture.stop()
    }

    private static func describe(_ p: ALSAPCM, _ direction: ALSADirection) -> String {
        "\(p.device): \(direction == .capture ? "capture" : "playback") \(p.info.rateText(direction)), \(p.channels) channel(s), \(p.format.rawValue), "
            + "period \(p.periodFrames) frames, buffer \(p.bufferFrames) frames"
    }

    /// Reads what the capture has (waiting up to `timeout` seconds) into ``buffer``.
    private mutating func read(timeout: Double) throws(CLIError) -> Int {
        do {
            return try buffer.withUnsafeMutableBufferPointer { b throws(ALSAError) in
                try capture.read(into: b, timeout: timeout)
            }
        } catch {
            throw CLIError(error)
        }
    }

    /// Plays `signal` while capturing; `progress` gets the seconds of it played so far.
    mutating func play(_ signal: [Float], progress: (Double) -> Void) throws(CLIError) -> [Float] {
        if let captured = try attempt(signal, progress: progress) { return captured }
        Diagnostics.warning(
            "the audio streams had a gap (an overrun or underrun on a busy machine); playing that part again")
        if let captured = try attempt(signal, progress: progress) { return captured }
        throw .runtime(
            "loopback: the audio streams had a gap (an overrun or underrun on a busy machine) twice, so the timing "
                + "is lost; run again, with a larger --latency (e.g. 200)")
    }

    /// One try at ``play(_:progress:)``; nil when a stream had a gap.
    private mutating func attempt(_ signal: [Float], progress: (Double) -> Void) throws(CLIError) -> [Float]? {
        // What the capture holds from before is not part of the answer.
        while try read(timeout: 0) > 0 {}
        var captured: [Float] = []
        captured.reserveCapacity(signal.count + buffer.count)
        var written = 0
        let fillerBefore = playback.silenceFrames
        let lostBefore = capture.overruns + capture.droppedFrames + playback.underruns
        let started = monotonicSeconds()
        let limit = Double(signal.count) / sampleRate + 10
        var watchdog = CaptureWatchdog()
        while captured.count < signal.count {
            if StopSignal.isRequested { throw .runtime("loopback: interrupted") }
            if written < signal.count {
                let end = min(signal.count, written + buffer.count)
                do {
                    try signal.withUnsafeBufferPointer { s throws(ALSAError) in
                        try playback.write(UnsafeBufferPointer(rebasing: s[written..<end]))
                    }
                } catch {
                    throw CLIError(error)
                }
                written = end
                // Filler silence while we still had samples to give is a hole in the timeline.
                if playback.silenceFrames > fillerBefore + 2 * playback.pcm.periodFrames { return nil }
            }
            let n = try read(timeout: written < signal.count ? 0 : 0.05)
            if capture.overruns + capture.droppedFrames + playback.underruns != lostBefore { return nil }
            captured.append(contentsOf: buffer[0..<n])
            progress(min(Double(captured.count), Double(written)) / sampleRate)
            let now = monotonicSeconds()
            if case .stalled(let seconds) = watchdog.observe(capturedFrames: capture.capturedFrames, now: now) {
                let device = capture.pcm.device
                throw .runtime(NoticePrinter.stallText(device, seconds))
            }
            if now - started > limit {
                throw .runtime("\(capture.pcm.device): the capture stopped delivering audio")
            }
        }
        return Array(captured.prefix(signal.count))
    }
}
