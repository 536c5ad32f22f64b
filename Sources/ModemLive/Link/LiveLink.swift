public import ModemDSP
public import ModemDecoding

/// One end of the reliable link on a live sound device, for any modem: the transmitter kept
/// open (so device start-up never eats a preamble) and the receiver running throughout.
///
/// The channel is half duplex and, on a loopback or with crosstalk, each end hears its own
/// bursts. For a one-way transfer that echo is harmless by construction: the sender only
/// acts on ACK packets and the receiver ignores them. Data both ways needs a
/// `ReliablePeer`, which drops our own packets by identity.
public struct LiveLink<Receiver: ModemReceiver, Transmitter: ModemTransmitter> {
    private var transmitter: LiveTransmitter<Transmitter>
    private var receiver: LiveDecoder<Receiver>
    /// The session's clock, stop request and notices.
    public let context: LiveContext
    /// The bytes the last ``poll(timeout:)`` decoded (empty when none).
    public private(set) var bytes: [UInt8] = []
    /// When the last of ``bytes`` was recorded (clock seconds; see
    /// ``LiveDecoder/capturedAt(_:)``), or when the last poll returned if none came.
    public private(set) var heardAt = 0.0
    /// Bursts given to ``transmit(_:)`` that have not all reached the playback ring, and how
    /// far into the first one we are: a burst goes to the ring a chunk at a time, as it finds
    /// room (``LiveTransmitter/hasRoom``), so a long one never blocks the loop in a write.
    private var queued: [[UInt8]] = []
    private var queuedOffset = 0

    /// Opens the receiver and the transmitter (kept open) on the context's devices. With
    /// `waitsForDevice` a device that stalls or goes away is waited for instead of ending the link.
    /// Throws when a device cannot be opened or the modem cannot run at the rate it granted.
    public init<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, context: LiveContext, waitsForDevice: Bool = false,
        reporter: any DecodeReporting
    ) throws(LiveError) where Factory.Receiver == Receiver, Maker.Transmitter == Transmitter {
        self.context = context
        receiver = try LiveDecoder(factory, context: context, waitsForDevice: waitsForDevice, reporter: reporter)
        transmitter = try LiveTransmitter(maker, context: context, keepOpen: true)
        transmitter.waitsForDevice = waitsForDevice
        bytes.reserveCapacity(256)
    }

    /// Starts capture and playback, before ``settle()`` or the first ``poll(timeout:)``.
    public func start() {
        receiver.start()
        transmitter.start()
    }

    /// Seconds until audio queued now is heard (bytes waiting for the ring, the ring, device and
    /// server buffers).
    public var outputDelay: Double {
        transmitter.playback.queuedSeconds + transmitter.airSeconds(bytes: waitingBytes)
    }

    /// Seconds until what we have queued has played: bytes waiting for the playback ring and the
    /// ring's own frames (for FSK the ring holds only bursts; the player fills gaps with
    /// silence). The device's and server's buffers behind it are left out: they are a fixed
    /// delay, not a queue.
    public var queuedAhead: Double {
        Double(transmitter.playback.pendingFrames) / Double(transmitter.sampleRate)
            + transmitter.airSeconds(bytes: waitingBytes)
    }

    /// Seconds the capture device may hold audio before we read it.
    public var captureDelay: Double { Double(receiver.capture.latencyFrames) / receiver.sampleRate }

    /// Seconds one byte takes on the wire.
    public var secondsPerByte: Double { transmitter.airSeconds(bytes: 1) }

    /// True when every burst given to ``transmit(_:)`` has left for the device.
    public var isIdle: Bool { queued.isEmpty && transmitter.isIdle }

    /// Bytes given to ``transmit(_:)`` that are not in the playback ring yet.
    public var waitingBytes: Int { queued.reduce(0) { $0 + $1.count } - queuedOffset }

    /// Lets the streams settle for a second and returns the output path's delay (0-2 s).
    ///
    /// Sound servers play the first audio of a new stream late (by up to about half a
    /// second on PulseAudio) and catch up afterwards; ACK timeouts sized with the delay
    /// measured after that (both ends' buffers, taken to be alike) fit, since the timer runs
    /// from when a burst is queued, not from when it is heard. What remains of the start-up
    /// lag can still cost a retransmission or two.
    public mutating func settle() throws(LiveError) -> Double {
        let started = context.clock.now()
        while context.clock.now() - started < 1.0 && !context.stop.isRequested {
            try pump()
            try poll(timeout: 0.02)
        }
        return min(2, max(0, outputDelay))
    }

    /// Keeps a resting line that carries a signal (HiJack's power tone) fed.
    public mutating func pump() throws(LiveError) {
        // A burst's rest first: resting line queued ahead of it would split it (HiJack's power
        // tone in the middle of a lab11 packet).
        try feed()
        try transmitter.pump()
    }

    /// Waits up to `timeout` seconds for audio and leaves the bytes decoded in ``bytes``.
    public mutating func poll(timeout: Double) throws(LiveError) {
        bytes.removeAll(keepingCapacity: true)
        defer { if bytes.isEmpty { heardAt = context.clock.now() } }
        try feed()
        guard try receiver.poll(timeout: timeout) else { return }
        for e in receiver.events where e.kind == .byte {
            bytes.append(e.value)
            heardAt = receiver.capturedAt(e)
        }
    }

    /// Queues one burst and returns at once: what fits goes to the playback ring now, the
    /// rest as ``pump()`` and ``poll(timeout:)`` find room. Written whole, a burst longer than
    /// the ring (a second) blocked the caller until it had nearly played, and the capture ring
    /// overflowed meanwhile: a full-duplex bridge lost the far end's packets and ACKs.
    public mutating func transmit(_ burst: [UInt8]) throws(LiveError) {
        queued.append(burst)
        try feed()
    }

    /// Seconds of audio the link keeps in the playback ring while bursts wait: a loop that
    /// stalls for less than this does not leave a gap in a burst (the player would fill it
    /// with silence), and with a ``LiveTransmitter/feedBytes`` chunk (a quarter second) on top
    /// it stays under the ring's second, so no write waits.
    static var keepQueuedSeconds: Double { 0.6 }

    /// Moves queued bytes to the playback ring a chunk at a time while it holds less than
    /// ``keepQueuedSeconds`` (with `all`, everything, waiting for room: only when finishing).
    private mutating func feed(all: Bool = false) throws(LiveError) {
        let rate = Double(transmitter.sampleRate)
        let chunk = transmitter.feedBytes
        while let burst = queued.first,
            all || Double(transmitter.playback.pendingFrames) / rate < Self.keepQueuedSeconds
        {
            let end = all ? burst.count : min(queuedOffset + chunk, burst.count)
            try burst.withUnsafeBufferPointer { b throws(LiveError) in
                try transmitter.send(UnsafeBufferPointer(rebasing: b[queuedOffset..<end]))
            }
            queuedOffset = end
            guard end == burst.count else { continue }
            try transmitter.endBurst()
            queued.removeFirst()
            queuedOffset = 0
        }
    }

    /// Lets queued audio (and `tail` seconds of resting line) play, then closes both directions.
    public mutating func finish(tail: Double = 0) throws(LiveError) {
        receiver.stop()
        try feed(all: true)
        try transmitter.finish(tail: tail)
    }

    /// What the receiver decoded.
    public var decoded: DecodeStats { receiver.stats }
    /// The capture's frames, overruns, dropped frames and priority.
    public var captureCounters: CaptureCounters { receiver.captureCounters }
    /// Bytes sent and the playback's frames, filler silence, underruns and priority.
    public var playbackCounters: PlaybackCounters { transmitter.counters }
}

extension LiveLink where Receiver == FSKDemodulator, Transmitter == BurstEncoder {
    /// The FSK link, at full level (-1 dBFS) with a 7-bit postamble.
    public init(context: LiveContext, settings: FSKSettings, preamble: Int, reporter: any DecodeReporting)
        throws(LiveError)
    {
        try self.init(
            settings, FSKTransmitterMaker(settings: settings, amplitudeDB: -1, preamble: preamble, postamble: 7),
            context: context, reporter: reporter)
    }
}
