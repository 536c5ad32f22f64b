public import ModemAudioIO
public import ModemDSP
public import ModemDecoding

/// Capture -> decode session for live input, for any modem: reads what the capture thread
/// queued and decodes it.
///
/// After audio is lost (an overrun, a device that went away and came back) the receiver
/// restarts, so a character cut by the gap is dropped and decoding resumes at the next start
/// bit; characters decoded before the gap are delivered first, none is lost. Event times
/// keep counting from the capture's start. ``latency(of:at:)`` dates events against the
/// context's clock through the capture reader's anchor.
public struct LiveDecoder<Receiver: ModemReceiver> {
    var reader: CaptureReader
    /// The decode session the captured audio goes through (events, statistics, receivers).
    public private(set) var session: DecodeSession<Receiver>
    /// The device read; a new one after a lost device is reopened.
    public var capture: any CaptureDevice { reader.capture }
    /// Receives every captured frame as it is read (gaps are left out); finished by
    /// ``finishRecording()``.
    public var recorder: WAVStreamWriter?
    /// Frames per second of the capture, as the device granted.
    public var sampleRate: Double { session.sampleRate }

    /// - Parameters:
    ///   - context: the capture asked for; `channel` (0-based) replaces its channel.
    ///   - waitsForDevice: a capture that stops delivering audio, or goes away, is waited
    ///     for instead of ending the session (``CaptureReader``).
    ///   - reporter: the decoding report; its verbosity also sets the observers'
    ///     (``ObserverPolicy/live(verbose:)``: an off-frequency sender is followed as a file
    ///     decode follows it).
    public init<Factory: ObservedReceiverFactory>(
        _ factory: Factory, context: LiveContext, channel: Int = 0, waitsForDevice: Bool = false,
        reporter: any DecodeReporting
    ) throws(LiveError) where Factory.Receiver == Receiver {
        var request = context.capture
        request.channel = channel
        reader = try CaptureReader(context: context, request: request)
        reader.waitsForDevice = waitsForDevice
        let rate = reader.sampleRate
        do {
            session = try DecodeSession(
                factory, sampleRate: rate, channels: 1, channel: nil, name: request.device, reporter: reporter,
                live: true
            ) {
                factory.observers(.live(verbose: reporter.verbose), sampleRate: rate, reporter: reporter)
            }
        } catch {
            reader.capture.stop()
            throw .decoding(error)
        }
    }

    /// Starts the capture device; audio is queued for ``poll(timeout:)`` from then on.
    public func start() { capture.start() }

    /// Waits up to `timeout` seconds for audio and decodes it; the characters found are in
    /// ``events``. Returns false when nothing arrived.
    public mutating func poll(timeout: Double) throws(LiveError) -> Bool {
        let (n, overran) = try reader.read(timeout: timeout)
        beforeGap.removeAll(keepingCapacity: true)
        processed = false
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
                throw .recording(error)
            }
        }
        reader.buffer.withUnsafeBufferPointer { session.process($0, frames: n) }
        processed = true
        return true
    }

    /// The characters of the last ``poll(timeout:)`` or ``stop()``.
    public var events: [ModemEvent] {
        // A poll that brought no audio (a gap met with nothing after it: a device reopened)
        // has only what the gap released; the session's list is still the last step's.
        guard processed else { return beforeGap }
        return beforeGap.isEmpty ? session.delivered : beforeGap + session.delivered
    }
    /// True when the session's delivered list belongs to the last poll (or to ``stop()``).
    private var processed = false
    /// Characters decoded before a capture gap, delivered by the poll that met it.
    private var beforeGap: [ModemEvent] = []

    /// Stops capture and delivers a character the end completes.
    public mutating func stop() {
        capture.stop()
        beforeGap.removeAll()
        session.finish()
        processed = true
    }

    /// Writes the recording's final header (its real length).
    public mutating func finishRecording() throws(LiveError) {
        do {
            try recorder?.finish()
        } catch {
            throw .recording(error)
        }
        recorder = nil
    }

    /// Seconds from the end of the event's last decisive bit (clock time) to `now`.
    public func latency(of event: ModemEvent, at now: Double) -> Double { now - capturedAt(event) }

    /// Clock time the end of the event's last decisive bit was recorded: what echo deadlines
    /// are compared with, since a receiver that looks ahead (auto detection keeps a burst's
    /// first blocks) hands characters over late.
    /// Stream time (seconds from the capture's first sample, as events are dated) at the
    /// monotonic time `now`: what a byte protocol with timing rules is advanced to while no
    /// byte comes (a lab11 packet ends, an XBee guard time passes).
    public func streamTime(at now: Double) -> Double { now - reader.anchor }

    /// Monotonic time at which `event`'s last sample was captured (valid for events of the
    /// last poll, dated from the capture's anchor).
    public func capturedAt(_ event: ModemEvent) -> Double { reader.anchor + Double(event.endSample) / sampleRate }

    /// Splits ``latency(of:at:)`` (valid for events of the last poll) into the receiver's
    /// look-ahead (signal it needed after the character), how long the device held that
    /// signal before handing it over (its period, a sound server's buffering and jitter),
    /// and the time from that read to `now` (decoding and output). Seconds.
    public func latencyParts(of event: ModemEvent, at now: Double) -> (
        lookahead: Double, held: Double, output: Double
    ) {
        (
            Double(event.decidedAt - event.endSample) / sampleRate,
            reader.lastRead - (reader.anchor + Double(event.decidedAt) / sampleRate),
            now - reader.lastRead
        )
    }

    /// What was decoded so far.
    public var stats: DecodeStats { session.stats }

    /// The capture's frames, overruns and priority.
    public var captureCounters: CaptureCounters { reader.counters }
}
