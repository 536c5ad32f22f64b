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
    private var reader: CaptureReader
    let configuration: DemodulatorConfiguration
    var verbose: Bool
    private var demodulator: FSKDemodulator
    private(set) var events: [DemodulatorEvent] = []
    var capture: CaptureStream { reader.capture }
    var anchor: Double { reader.anchor }
    var tracker: BurstTracker
    private(set) var bursts = 0

    init(options: LiveAudioOptions, configuration base: DemodulatorConfiguration, verbose: Bool) throws(CLIError) {
        let capture: CaptureStream
        do {
            capture = try CaptureStream(device: options.device, sampleRate: options.rate,
                                        periodFrames: options.periodFrames, periods: LiveAudioOptions.periods)
        } catch {
            throw CLIError(error)
        }
        reader = CaptureReader(capture: capture)
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
        events.reserveCapacity(256)
        tracker = BurstTracker(sampleRate: config.sampleRate, baud: config.profile.baud)
        if verbose { Diagnostics.info(reader.description()) }
    }

    func start() { capture.start() }

    /// Waits up to `timeout` seconds for audio, decodes it, and leaves the characters found
    /// in ``events``. Returns false when nothing arrived.
    mutating func poll(timeout: Double) throws(CLIError) -> Bool {
        events.removeAll(keepingCapacity: true)
        let (n, overran) = try reader.read(timeout: timeout)
        if overran { demodulator.reset() }
        if n == 0 { return false }
        reader.buffer.withUnsafeBufferPointer { demodulator.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &events) }
        for e in events { if let done = tracker.add(e) { finished(done) } }
        // Live, a burst is over once the stream has run a gap past it, not at end of file.
        if let done = tracker.finish(at: demodulator.samplesConsumed) { finished(done) }
        return true
    }

    /// Seconds from the end of the event's stop bit (in wall-clock time) to `now`.
    func latency(of event: DemodulatorEvent, at now: Double) -> Double {
        now - (anchor + Double(event.endSample) / configuration.sampleRate)
    }

    /// Splits ``latency(of:at:)`` (valid for events of the last ``poll(timeout:)``) into the
    /// demodulator's look-ahead (signal it needed after the stop bit), how long the device
    /// held that signal before handing it over (its period, a sound server's buffering and
    /// jitter), and the time from that read to `now` (decoding and output). Seconds.
    func latencyParts(of event: DemodulatorEvent, at now: Double) -> (lookahead: Double, held: Double, output: Double) {
        let rate = configuration.sampleRate
        return (Double(event.decidedAt - event.endSample) / rate,
                reader.lastRead - (anchor + Double(event.decidedAt) / rate),
                now - reader.lastRead)
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

    var counters: String { reader.counters }
}
