import ModemALSA
import ModemAudioIO
import ModemDSP
import ModemDecoding

/// Capture -> decode session for the live commands (rx, term), for any modem: reads what
/// the capture thread queued, decodes it, and reports overruns once each on stderr.
///
/// After an overrun the receiver restarts (on this consumer thread, never the audio one),
/// so a character cut by the gap is dropped and decoding resumes at the next start bit;
/// event times keep counting from the capture's start. ``latency(of:at:)`` dates events
/// against the wall clock through the capture reader's anchor.
struct LiveDecoder<Receiver: ModemReceiver> {
    private var reader: CaptureReader
    private(set) var session: DecodeSession<Receiver>
    var capture: CaptureStream { reader.capture }
    /// `rx --record`: receives every captured frame as it is read (gaps from overruns are
    /// left out); finished by ``finishRecording()``.
    var recorder: WAVStreamWriter?
    var sampleRate: Double { session.sampleRate }

    /// - Parameters:
    ///   - channel: 0-based capture channel (0 lets a sound server down-mix to mono).
    ///   - waitsForDevice: a capture that stops delivering audio is waited for with a warning
    ///     instead of ending the command (``CaptureReader``).
    ///   - reporter: the `-v` report; its verbosity also sets the observers'
    ///     (``ObserverPolicy/live(verbose:)``: an off-frequency sender is followed as `decode`
    ///     follows it).
    init<Factory: ObservedReceiverFactory>(
        _ factory: Factory, options: LiveAudioOptions, channel: Int = 0, waitsForDevice: Bool = false,
        reporter: BurstReporter
    ) throws(CLIError) where Factory.Receiver == Receiver {
        let capture: CaptureStream
        do {
            let rate = options.requestedRate(.capture)
            capture = try CaptureStream(
                device: options.device, sampleRate: rate, periodFrames: options.periodFrames(at: rate),
                periods: LiveAudioOptions.periods, channel: channel, limit: options.openLimit,
                exactRate: options.rateIsExact)
        } catch {
            throw CLIError(error)
        }
        reader = CaptureReader(capture: capture)
        reader.waitsForDevice = waitsForDevice
        do {
            session = try DecodeSession(
                factory, sampleRate: Double(capture.sampleRate), channels: 1, channel: nil,
                name: options.device, reporter: reporter, live: true
            ) {
                factory.observers(
                    .live(verbose: reporter.verbose), sampleRate: Double(capture.sampleRate), reporter: reporter)
            }
        } catch {
            throw CLIError(error)
        }
        if reporter.verbose {
            Diagnostics.info(
                reader.description(channel > 0 ? " (decoding channel \(channel + 1))" : "") + "; \(reporter.modemName)")
        }
    }

    func start() { capture.start() }

    /// Waits up to `timeout` seconds for audio and decodes it; the characters found are in
    /// ``events``. Returns false when nothing arrived.
    mutating func poll(timeout: Double) throws(CLIError) -> Bool {
        let (n, overran) = try reader.read(timeout: timeout)
        beforeGap.removeAll(keepingCapacity: true)
        if overran {
            // What the receivers held from before the gap comes out ahead of this read's.
            session.restartAfterGap()
            beforeGap.append(contentsOf: session.delivered)
        }
        guard n > 0 else { return !beforeGap.isEmpty }
        if let recorder {
            do {
                try reader.buffer.withUnsafeBufferPointer { b throws(AudioIOError) in
                    try recorder.write(UnsafeBufferPointer(rebasing: b[0..<n]))
                }
            } catch {
                throw CLIError(error)
            }
        }
        reader.buffer.withUnsafeBufferPointer { session.process($0, frames: n) }
        return true
    }

    /// The characters of the last ``poll(timeout:)`` or ``stop()``.
    var events: [ModemEvent] { beforeGap.isEmpty ? session.delivered : beforeGap + session.delivered }
    /// Characters decoded before a capture gap, delivered by the poll that met it.
    private var beforeGap: [ModemEvent] = []

    /// Stops capture and reports a character the end completes.
    mutating func stop() {
        capture.stop()
        session.finish()
    }

    /// Writes the recording's final header (its real length).
    mutating func finishRecording() throws(CLIError) {
        do {
            try recorder?.finish()
        } catch {
            throw CLIError(error)
        }
        recorder = nil
    }

    /// Seconds from the end of the event's last decisive bit (wall-clock time) to `now`.
    func latency(of event: ModemEvent, at now: Double) -> Double { now - capturedAt(event) }

    /// Wall-clock time (monotonic seconds) the end of the event's last decisive bit was
    /// recorded: what echo deadlines are compared with, since a receiver that looks ahead
    /// (auto detection keeps a burst's first blocks) hands characters over late.
    func capturedAt(_ event: ModemEvent) -> Double { reader.anchor + Double(event.endSample) / sampleRate }

    /// Splits ``latency(of:at:)`` (valid for events of the last poll) into the receiver's
    /// look-ahead (signal it needed after the character), how long the device held that
    /// signal before handing it over (its period, a sound server's buffering and jitter),
    /// and the time from that read to `now` (decoding and output). Seconds.
    func latencyParts(of event: ModemEvent, at now: Double) -> (lookahead: Double, held: Double, output: Double) {
        (
            Double(event.decidedAt - event.endSample) / sampleRate,
            reader.lastRead - (reader.anchor + Double(event.decidedAt) / sampleRate),
            now - reader.lastRead
        )
    }

    /// The `-v` counters: what was decoded, then the capture's frames and overruns.
    var counters: String {
        let s = session.stats
        var line =
            "\(s.bytes) bytes, \(s.parityErrors) parity errors, \(s.framingErrors) framing errors, "
            + "\(s.bursts) burst\(s.bursts == 1 ? "" : "s")"
        if let baud = s.baud { line += ", \(Diagnostics.number(baud, 1)) baud" }
        if let inverted = s.inverted { line += inverted ? ", inverted line" : ", normal polarity" }
        return line + ", " + reader.counters
    }
}
