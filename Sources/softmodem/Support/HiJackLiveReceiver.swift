import ModemALSA
import ModemDSP

/// Capture -> HiJack decoder for `rx --profile hijack`: reads what the capture thread
/// queued, decodes it, counts good, parity-error and framing-error frames, and reports
/// overruns once each on stderr.
///
/// After an overrun the decoder is rebuilt (on this consumer thread, never the audio one),
/// so a frame cut by the gap is dropped and decoding resumes at the next start bit. Event
/// times are dated against the wall clock like ``LiveReceiver`` does.
struct HiJackLiveReceiver {
    private var reader: CaptureReader
    let sampleRate: Double
    let nominalBaud: Double
    private var decoder: HiJackDecoder
    private(set) var events: [HiJackEvent] = []
    /// Samples given to decoders before the current one (it counts from its own start).
    private var decoderOrigin: Int64 = 0
    var capture: CaptureStream { reader.capture }
    var received: Int64 { reader.received }
    var anchor: Double { reader.anchor }
    private(set) var bytes = 0
    private(set) var parityErrors = 0
    private(set) var framingErrors = 0
    private(set) var lastBaud: Double?
    private(set) var inverted: Bool?

    /// - Parameter channel: 0-based capture channel (0 lets a sound server down-mix to mono).
    init(options: LiveAudioOptions, channel: Int, nominalBaud: Double, verbose: Bool) throws(CLIError) {
        let capture: CaptureStream
        do {
            capture = try CaptureStream(device: options.device, sampleRate: options.rate, periodFrames: options.periodFrames,
                                        periods: LiveAudioOptions.periods, channel: channel)
        } catch {
            throw CLIError(error)
        }
        reader = CaptureReader(capture: capture)
        sampleRate = Double(capture.sampleRate)
        self.nominalBaud = nominalBaud
        do {
            decoder = try HiJackDecoder(sampleRate: sampleRate, nominalBaud: nominalBaud)
        } catch {
            throw .usage("\(options.device): \(error)")
        }
        events.reserveCapacity(256)
        if verbose {
            Diagnostics.info(reader.description(" (decoding channel \(channel + 1))")
                + "; hijack around \(Diagnostics.number(nominalBaud, 2)) baud")
        }
    }

    func start() { capture.start() }

    /// Waits up to `timeout` seconds for audio and decodes it; good bytes and rejected frames
    /// are left in ``events`` with stream-wide sample positions. False when nothing arrived.
    mutating func poll(timeout: Double) throws(CLIError) -> Bool {
        events.removeAll(keepingCapacity: true)
        let (n, overran) = try reader.read(timeout: timeout)
        // After an overrun a fresh decoder starts at the next start bit; building it here,
        // on the consumer thread, is fine (never on the audio thread).
        if overran, let fresh = try? HiJackDecoder(sampleRate: sampleRate, nominalBaud: nominalBaud) {
            decoder = fresh
            decoderOrigin = reader.received - Int64(n)
        }
        if n == 0 { return false }
        reader.buffer.withUnsafeBufferPointer { decoder.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &events) }
        count()
        return true
    }

    /// Stops capture and reports a frame still in progress, if it completes.
    mutating func stop() {
        capture.stop()
        events.removeAll(keepingCapacity: true)
        decoder.flush(into: &events)
        count()
    }

    private mutating func count() {
        for i in events.indices {
            events[i].startSample += decoderOrigin
            switch events[i].kind {
            case .byte:
                bytes += 1
                lastBaud = events[i].baud
                inverted = events[i].inverted
            case .parityError: parityErrors += 1
            case .framingError: framingErrors += 1
            }
        }
    }

    /// Sample just after the frame's parity bit (start + 8 data + parity cells).
    func endSample(of event: HiJackEvent) -> Int64 {
        event.startSample + Int64((Double(HiJack.frameBits) * sampleRate / event.baud).rounded())
    }

    /// Seconds from the end of the event's parity bit (wall-clock time) to `now`.
    func latency(of event: HiJackEvent, at now: Double) -> Double {
        now - (anchor + Double(endSample(of: event)) / sampleRate)
    }

    var counters: String {
        var line = "\(bytes) bytes, \(parityErrors) parity errors, \(framingErrors) framing errors"
        if let lastBaud { line += ", \(Diagnostics.number(lastBaud, 1)) baud" }
        if let inverted { line += inverted ? ", inverted line" : ", normal polarity" }
        return line + ", " + reader.counters
    }
}
