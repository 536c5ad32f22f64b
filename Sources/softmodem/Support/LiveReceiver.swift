import ModemALSA
import ModemDSP

/// Capture -> demodulator for the live commands (rx, term): reads what the capture thread
/// queued, decodes it, and reports overruns once each on stderr.
///
/// After an overrun (device or ring) the demodulator is reset, so a character cut by the
/// gap is dropped and decoding resumes at the next start bit. ``latency(of:at:)`` dates
/// events against the wall clock: the capture start is anchored at the earliest instant
/// consistent with every read so far (a sample cannot be delivered before it was recorded).
struct LiveReceiver {
    let capture: CaptureStream
    let configuration: DemodulatorConfiguration
    var verbose: Bool
    private var demodulator: FSKDemodulator
    private var buffer: [Float]
    private(set) var events: [DemodulatorEvent] = []
    private var seenOverruns = 0
    private var seenDropped = 0
    private var received: Int64 = 0
    private(set) var anchor = Double.infinity
    var tracker: BurstTracker
    private(set) var bursts = 0

    init(options: LiveAudioOptions, configuration base: DemodulatorConfiguration, verbose: Bool) throws(CLIError) {
        do {
            capture = try CaptureStream(device: options.device, sampleRate: options.rate,
                                        periodFrames: options.periodFrames, periods: LiveAudioOptions.periods)
        } catch {
            throw CLIError(error)
        }
        var config = base
        config.sampleRate = Double(capture.sampleRate)
        do {
            try config.profile.validate(sampleRate: config.sampleRate)
            demodulator = try FSKDemodulator(config)
        } catch {
            throw CLIError(error, context: options.device)
        }
        configuration = config
        self.verbose = verbose
        buffer = [Float](repeating: 0, count: capture.pcm.periodFrames * 4)
        events.reserveCapacity(256)
        tracker = BurstTracker(sampleRate: config.sampleRate, baud: config.profile.baud)
        if verbose {
            let p = capture.pcm
            Diagnostics.info("\(p.device): capture \(p.sampleRate) Hz, \(p.channels) channel(s), \(p.format.rawValue), "
                + "period \(p.periodFrames) frames (\(Diagnostics.number(Double(p.periodFrames) * 1000 / Double(p.sampleRate))) ms), "
                + "buffer \(p.bufferFrames) frames")
        }
    }

    func start() { capture.start() }

    /// Waits up to `timeout` seconds for audio, decodes it, and leaves the characters found
    /// in ``events``. Returns false when nothing arrived.
    mutating func poll(timeout: Double) throws(CLIError) -> Bool {
        events.removeAll(keepingCapacity: true)
        let n: Int
        do {
            n = try buffer.withUnsafeMutableBufferPointer { b throws(ALSAError) in try capture.read(into: b, timeout: timeout) }
        } catch {
            throw CLIError(error)
        }
        let now = monotonicSeconds()
        let overruns = capture.overruns, dropped = capture.droppedFrames
        if overruns != seenOverruns || dropped != seenDropped {
            Diagnostics.warning("\(capture.pcm.device): capture overrun (\(overruns) recovered, \(dropped) frames dropped so far); resuming at the next start bit")
            seenOverruns = overruns
            seenDropped = dropped
            demodulator.reset()
        }
        if n == 0 { return false }
        received += Int64(n)
        anchor = min(anchor, now - Double(received) / configuration.sampleRate)
        buffer.withUnsafeBufferPointer { demodulator.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &events) }
        for e in events { if let done = tracker.add(e) { finished(done) } }
        // Live, a burst is over once the stream has run a gap past it, not at end of file.
        if let done = tracker.finish(at: demodulator.samplesConsumed) { finished(done) }
        return true
    }

    /// Seconds from the end of the event's stop bit (in wall-clock time) to `now`.
    func latency(of event: DemodulatorEvent, at now: Double) -> Double {
        now - (anchor + Double(event.endSample) / configuration.sampleRate)
    }

    /// Stream time of the event's end, in seconds since capture started.
    func streamSeconds(_ event: DemodulatorEvent) -> Double { Double(event.endSample) / configuration.sampleRate }

    mutating func stop() {
        capture.stop()
        events.removeAll(keepingCapacity: true)
        demodulator.flush(into: &events)
        for e in events { if let done = tracker.add(e) { finished(done) } }
        if let last = tracker.finish(at: .max, force: true) { finished(last) }
    }

    /// Counts a burst and, with -v, describes it like `decode -v` does.
    private mutating func finished(_ burst: BurstTracker.Summary) {
        bursts += 1
        guard verbose else { return }
        let rate = configuration.sampleRate
        let fullBandSNR = burst.ebN0 - decibels(power: rate / 2 / configuration.profile.baud)
        Diagnostics.info("burst at \(Diagnostics.seconds(burst.startSample, rate: rate)): \(burst.bytes) bytes, "
            + "level \(Diagnostics.number(decibels(power: burst.signalPower * 2))) dBFS peak, "
            + "SNR \(Diagnostics.number(fullBandSNR)) dB (Eb/N0 \(Diagnostics.number(burst.ebN0)) dB), "
            + "mark \(Diagnostics.number(burst.markFrequency, 0)) Hz, space \(Diagnostics.number(burst.spaceFrequency, 0)) Hz, "
            + "\(burst.framingErrors) framing errors")
    }

    var counters: String {
        "\(received) frames captured, \(capture.overruns) overruns recovered, \(capture.droppedFrames) frames dropped"
    }
}
