import ModemALSA
import ModemDSP
import ModemDecoding
import ModemFraming

/// One end of the reliable link on a live sound device, for any modem: the transmitter kept
/// open (so device start-up never eats a preamble) and the receiver running throughout.
/// `send` and `receive` run it with FSK; `serial --reliable` with whatever its options chose.
///
/// The channel is half duplex and, on a loopback or with crosstalk, each end hears its own
/// bursts. For a one-way transfer that echo is harmless by construction: the sender only
/// acts on ACK packets and the receiver ignores them. Data both ways needs ``ReliablePeer``,
/// which drops our own packets by identity.
struct LiveLink<Receiver: ModemReceiver, Transmitter: ModemTransmitter> {
    private var transmitter: LiveTransmitter<Transmitter>
    private var receiver: LiveDecoder<Receiver>
    private(set) var bytes: [UInt8] = []
    /// When the last of ``bytes`` was recorded (monotonic seconds; see
    /// ``LiveDecoder/capturedAt(_:)``), or when the last poll returned if none came.
    private(set) var heardAt = 0.0

    init<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, options: LiveAudioOptions, waitsForDevice: Bool = false,
        reporter: BurstReporter
    ) throws(CLIError) where Factory.Receiver == Receiver, Maker.Transmitter == Transmitter {
        receiver = try LiveDecoder(factory, options: options, waitsForDevice: waitsForDevice, reporter: reporter)
        transmitter = try LiveTransmitter(maker, options: options, keepOpen: true, verbose: reporter.verbose)
        bytes.reserveCapacity(256)
    }

    func start() {
        receiver.start()
        transmitter.start()
    }

    /// Seconds until audio queued now is heard (ring, device and server buffers).
    var outputDelay: Double { transmitter.playback.queuedSeconds }

    /// Seconds the capture device may hold audio before we read it.
    var captureDelay: Double { Double(receiver.capture.latencyFrames) / Double(receiver.capture.sampleRate) }

    /// Seconds one byte takes on the wire.
    var secondsPerByte: Double { transmitter.airSeconds(bytes: 1) }

    /// True when every burst queued has left for the device.
    var isIdle: Bool { transmitter.isIdle }

    /// Lets the streams settle for a second and returns the output path's delay (0-2 s).
    ///
    /// Sound servers play the first audio of a new stream late (by up to about half a
    /// second on PulseAudio) and catch up afterwards; ACK timeouts sized with the delay
    /// measured after that (both ends' buffers, taken to be alike) fit, since the timer runs
    /// from when a burst is queued, not from when it is heard. What remains of the start-up
    /// lag can still cost a retransmission or two.
    mutating func settle() throws(CLIError) -> Double {
        let started = monotonicSeconds()
        while monotonicSeconds() - started < 1.0 && !StopSignal.isRequested {
            try pump()
            try poll(timeout: 0.02)
        }
        return min(2, max(0, outputDelay))
    }

    /// Keeps a resting line that carries a signal (HiJack's power tone) fed.
    mutating func pump() throws(CLIError) { try transmitter.pump() }

    /// Waits up to `timeout` seconds for audio and leaves the bytes decoded in ``bytes``.
    mutating func poll(timeout: Double) throws(CLIError) {
        bytes.removeAll(keepingCapacity: true)
        defer { if bytes.isEmpty { heardAt = monotonicSeconds() } }
        guard try receiver.poll(timeout: timeout) else { return }
        for e in receiver.events where e.kind == .byte {
            bytes.append(e.value)
            heardAt = receiver.capturedAt(e)
        }
    }

    /// Queues one burst; returns at once (the playback thread plays it).
    mutating func transmit(_ burst: [UInt8]) throws(CLIError) {
        try burst.withUnsafeBufferPointer { b throws(CLIError) in try transmitter.send(b) }
        try transmitter.endBurst()
    }

    /// Lets queued audio (and `tail` seconds of resting line) play, then closes both directions.
    mutating func finish(tail: Double = 0) throws(CLIError) {
        receiver.stop()
        try transmitter.finish(tail: tail)
    }

    var counters: String { "capture: \(receiver.counters); playback: \(transmitter.counters)" }
}

extension LiveLink where Receiver == FSKDemodulator, Transmitter == BurstEncoder {
    /// The FSK link of `send` and `receive`, at full level.
    init(options: LiveAudioOptions, profile: ModemProfile, format: FrameFormat, preamble: Int, verbose: Bool)
        throws(CLIError)
    {
        let settings = FSKSettings(profile: profile, format: format)
        try self.init(
            settings, FSKTransmitterMaker(settings: settings, amplitudeDB: -1, preamble: preamble, postamble: 7),
            options: options, reporter: BurstReporter(verbose: verbose, trace: false, modem: .fsk(settings)))
    }
}
