public import ModemDSP

/// Bytes -> any modem's transmitter -> a playback device, for sending live.
///
/// Bytes given together go out as one burst, closed by ``endBurst()``. A modem whose resting
/// line carries a signal (HiJack's power tone) has the stream kept open and fed with it by
/// ``pump()``, so the board's power never stops; for FSK the player fills gaps with silence
/// itself. With ``waitsForDevice`` a device that goes away is reopened once a second; what is
/// sent meanwhile is lost (the reliable link sends it again).
public struct LiveTransmitter<Transmitter: ModemTransmitter> {
    /// The device written to; a new one after a lost device is reopened.
    public private(set) var playback: any PlaybackDevice
    private var transmitter: Transmitter
    private var samples: [Float]
    let context: LiveContext
    private let request: PlaybackRequest
    /// Bytes encoded at a time: ``send(_:)`` checks for a stop between chunks, and a bridge feeds
    /// its input this many at a time.
    public static var chunkBytes: Int { 64 }
    /// Bytes encoded and queued by ``send(_:)`` so far (including any lost while a device was gone).
    public private(set) var bytesSent = 0
    /// Frames the transmitter has produced so far (bursts and resting line), including any lost
    /// while a device was gone.
    public private(set) var framesRendered: Int64 = 0
    /// Frames kept queued ahead of the device while the line rests (``pump()``): enough to
    /// ride out a late wake-up, short enough that a byte typed now is heard soon.
    public let targetFrames: Int
    /// Frames queued up to the end of the last burst's signal: once the player has taken
    /// that many from the ring, everything we sent is out (a resting line does not count).
    private var signalEnd: Int64 = 0
    /// Frames the player had taken when the current device opened (a reopened device counts
    /// from 0).
    private var playedBefore: Int64 = 0
    /// Reopens a device that goes away, once a second, instead of ending the session.
    public var waitsForDevice = false
    private var reopenAt: Double?

    /// Opens the context's playback for `maker`'s transmitter. Settings that cannot work are
    /// thrown before the device opens (checked at the nearest rate a modem accepts; a rate no
    /// device could take is the device's to refuse, with its own message), then the
    /// transmitter is made again at the rate the device granted.
    public init<Maker: TransmitterMaker>(_ maker: Maker, context: LiveContext, keepOpen: Bool)
        throws(LiveError)
    where Maker.Transmitter == Transmitter {
        self.context = context
        let probe: Transmitter
        do {
            probe = try maker.make(sampleRate: min(max(Double(context.playback.sampleRate), 8_000), 192_000))
        } catch {
            throw .transmitter(error)
        }
        var request = context.playback
        request.keepOpen = keepOpen || probe.restIsSignal
        request.channels = probe.channels
        self.request = request
        do {
            playback = try context.system.openPlayback(request)
        } catch {
            throw .device(error)
        }
        let rate = Double(playback.info.sampleRate)
        do {
            transmitter = try maker.make(sampleRate: rate)
        } catch {
            playback.abort()
            throw .transmitter(error)
        }
        targetFrames = max(4 * playback.info.periodFrames, Int(rate * 0.15))
        let frames = max(
            transmitter.maxFrames(forBytes: Self.chunkBytes), transmitter.maxFramesForFinish,
            playback.info.periodFrames + transmitter.restOvershoot)
        samples = [Float](repeating: 0, count: frames * transmitter.channels)
        context.notices.notice(.playbackOpened(playback.info, keptOpen: request.keepOpen))
    }

    /// Frames per second the device granted.
    public var sampleRate: Int { playback.info.sampleRate }

    /// The transmitter, for describing what is sent.
    public var modem: Transmitter { transmitter }

    /// Starts the playback device; what is queued plays from then on.
    public func start() { playback.start() }

    /// Queues `bytes` as characters of the current burst (opening one if needed). After a
    /// stop request the rest is dropped, so a stop ends a long send within a ring's length.
    public mutating func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(LiveError) {
        var i = 0
        while i < bytes.count && !context.stop.isRequested {
            let part = UnsafeBufferPointer(rebasing: bytes[i..<min(i + Self.chunkBytes, bytes.count)])
            let n = samples.withUnsafeMutableBufferPointer { transmitter.encode(part, into: $0.baseAddress!) }
            try queue(n)
            i += part.count
            bytesSent += part.count
        }
        signalEnd = framesRendered
    }

    /// Closes the burst with its postamble.
    public mutating func endBurst() throws(LiveError) {
        let n = samples.withUnsafeMutableBufferPointer { transmitter.finishBurst(into: $0.baseAddress!) }
        try queue(n)
        if n > 0 { signalEnd = framesRendered }
        if !transmitter.restIsSignal { playback.endBurst() }
    }

    /// Keeps a resting line that carries a signal queued up to ``targetFrames``; call at
    /// least every 100 ms (for FSK the line rests silent by itself). Also where a device that
    /// failed while idle is noticed, and one that went away is reopened.
    public mutating func pump() throws(LiveError) {
        try watchDevice()
        guard transmitter.restIsSignal else { return }
        while playback.pendingFrames < targetFrames && !context.stop.isRequested && reopenAt == nil {
            try rest(playback.info.periodFrames)
        }
    }

    /// Plays the resting line (HiJack's power tone) until `total` frames have been rendered
    /// (nil: no end) or the context's stop flag is set, keeping ``targetFrames`` queued and
    /// waiting on the context's clock between top-ups: `power --device`. Call ``start()``
    /// first. A device that fails ends it with the device's error, or, with
    /// ``waitsForDevice``, is waited for (on the clock, queueing nothing) and reopened.
    public mutating func playResting(frames total: Int64?) throws(LiveError) {
        let total = total ?? .max
        while !context.stop.isRequested && framesRendered < total {
            try watchDevice()
            if reopenAt == nil && playback.pendingFrames < targetFrames {
                try rest(Int(min(Int64(targetFrames), total - framesRendered)))
            } else {
                context.clock.sleep(0.01)
            }
        }
    }

    /// Queues at least `frames` frames of the resting line.
    public mutating func rest(_ frames: Int) throws(LiveError) {
        var left = frames
        let period = playback.info.periodFrames
        while left > 0 {
            let ask = min(left, period)
            let n = samples.withUnsafeMutableBufferPointer { transmitter.rest(atLeast: ask, into: $0.baseAddress!) }
            try queue(n)
            left -= n
        }
    }

    /// Seconds of bytes a caller feeding a long input a chunk at a time keeps queued beyond
    /// the resting line: enough to keep the line busy, short enough that its loop keeps
    /// reading the capture.
    public static var queueAheadSeconds: Double { 0.25 }

    /// Bytes a caller feeding a long input queues at a time: ``queueAheadSeconds`` of them, at
    /// least one, at most ``chunkBytes`` (64 bytes take 5 s at 126 baud, longer than the ring,
    /// and their write would wait).
    public var feedBytes: Int {
        max(1, min(Self.chunkBytes, Int(Self.queueAheadSeconds / transmitter.secondsPerByte)))
    }

    /// True when another chunk of bytes may be queued: the ring holds less than
    /// ``queueAheadSeconds`` beyond ``targetFrames``. Counted in the ring alone: the device's
    /// and the server's buffers behind it grow with the latency (a HiJack line kept at its
    /// target behind a 100 ms buffer already filled a quarter of a second, and term never
    /// sent).
    public var hasRoom: Bool {
        playback.pendingFrames < targetFrames + Int(Self.queueAheadSeconds * Double(sampleRate))
    }

    /// True when every burst queued has left the ring for the device (devices and servers
    /// may start late, so this follows the player rather than a clock).
    public var isIdle: Bool { reopenAt != nil || playedBefore + Int64(playback.playedFrames) >= signalEnd }

    /// Seconds `bytes` bytes take on the wire.
    public func airSeconds(bytes: Int) -> Double { Double(bytes) * transmitter.secondsPerByte }

    /// Closes the burst, adds `tail` seconds of resting line, lets everything play, stops.
    public mutating func finish(tail: Double = 0) throws(LiveError) {
        try endBurst()
        if transmitter.restIsSignal && tail > 0 { try rest(Int(tail * Double(sampleRate))) }
        playback.endBurst()
        guard reopenAt == nil else { return }
        do { try playback.finish() } catch { try lost(error) }
    }

    private mutating func queue(_ frames: Int) throws(LiveError) {
        guard frames > 0 else { return }
        framesRendered += Int64(frames)
        if reopenAt != nil {
            // This chunk is already counted in framesRendered but goes to the new device.
            try reopenIfDue(pending: frames)
            if reopenAt != nil { return }
        }
        let count = frames * transmitter.channels
        do {
            try samples.withUnsafeBufferPointer { b throws(AudioDeviceError) in
                try playback.write(UnsafeBufferPointer(rebasing: b[0..<count]))
            }
        } catch {
            try lost(error)
        }
    }

    /// A device that failed while idle (a card unplugged between bursts) is noticed here,
    /// not at the next burst, which would then be lost; one that is gone is reopened when due.
    private mutating func watchDevice() throws(LiveError) {
        guard reopenAt == nil else { return try reopenIfDue() }
        do { try playback.check() } catch { try lost(error) }
    }

    /// Ends the session with `error`, or, when waiting for the device and it went away,
    /// releases it and schedules the reopen.
    private mutating func lost(_ error: AudioDeviceError) throws(LiveError) {
        guard waitsForDevice && error.reason == .disconnected else { throw .device(error) }
        context.notices.notice(.deviceLost(error, .playback))
        playback.abort()
        playback = LostPlaybackDevice(playback, error: error)
        reopenAt = context.clock.now() + CaptureReader.reopenInterval
    }

    /// Opens the device again once the interval since the last try has passed; `pending`
    /// frames rendered but not yet written go to the new device.
    private mutating func reopenIfDue(pending: Int = 0) throws(LiveError) {
        let now = context.clock.now()
        guard let due = reopenAt, now >= due else { return }
        let again: any PlaybackDevice
        do {
            again = try context.system.openPlayback(request)
        } catch {
            guard error.reason == .disconnected || error.reason == .noSuchDevice || error.reason == .noAnswer
            else { throw .device(error) }
            reopenAt = now + CaptureReader.reopenInterval
            return
        }
        guard again.info.sampleRate == playback.info.sampleRate else {
            again.abort()
            throw .device(
                AudioDeviceError(
                    .unsupported, device: request.device,
                    description:
                        "\(request.device): came back at \(again.info.sampleRate) Hz instead of \(playback.info.sampleRate) Hz"
                ))
        }
        playback = again
        reopenAt = nil
        // Whatever was queued before is gone: count the new device's frames from here.
        playedBefore = framesRendered - Int64(pending)
        signalEnd = min(signalEnd, framesRendered)
        context.notices.notice(.deviceReopened(again.info, .playback))
        again.start()
    }

    /// Bytes sent and the device's frames, filler, underruns and priority.
    public var counters: PlaybackCounters {
        PlaybackCounters(
            bytesSent: bytesSent, framesPlayed: playback.playedFrames, silenceFrames: playback.silenceFrames,
            underruns: playback.underruns, isRealTime: playback.isRealTime)
    }
}

/// A playback's running totals.
public struct PlaybackCounters: Sendable, Equatable {
    /// Bytes the transmitter encoded and queued.
    public var bytesSent: Int
    /// Frames of signal the current device took from the ring (filler silence not counted).
    public var framesPlayed: Int
    /// Frames of filler silence played while the ring was empty.
    public var silenceFrames: Int
    /// Underruns the device recovered from.
    public var underruns: Int
    /// True when the playback thread runs at real-time priority.
    public var isRealTime: Bool
}
