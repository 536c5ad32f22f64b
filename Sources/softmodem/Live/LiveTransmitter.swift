import ModemALSA
import ModemDSP

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes -> any modem's transmitter -> playback thread, for tx, term, power and the live
/// link.
///
/// Bytes given together go out as one burst, closed by ``endBurst()``. A modem whose
/// resting line carries a signal (HiJack's power tone) has the stream kept open and fed
/// with it by ``pump()``, so the board's power never stops; for FSK the player fills gaps
/// with silence itself.
struct LiveTransmitter<Transmitter: ModemTransmitter> {
    let playback: PlaybackStream
    private var transmitter: Transmitter
    private var samples: [Float]
    static var chunkBytes: Int { 64 }
    private(set) var bytesSent = 0
    private(set) var framesRendered: Int64 = 0
    /// Frames kept queued ahead of the device while the line rests (``pump()``): enough to
    /// ride out a late wake-up, short enough that a byte typed now is heard soon.
    let targetFrames: Int
    /// Frames queued up to the end of the last burst's signal: once the player has taken
    /// that many from the ring, everything we sent is out (a resting line does not count).
    private var signalEnd: Int64 = 0

    init<Maker: TransmitterMaker>(_ maker: Maker, options: LiveAudioOptions, keepOpen: Bool, verbose: Bool)
        throws(CLIError)
    where Maker.Transmitter == Transmitter {
        // Bad values are usage errors before any device is opened (made again at the rate
        // the device grants). A rate no device could take is the device's to refuse, with
        // its own message, so the early check uses the nearest rate a modem accepts.
        let requested = options.requestedRate(.playback)
        let probe = try maker.make(sampleRate: min(max(Double(requested), 8_000), 192_000))
        let open = keepOpen || probe.restIsSignal
        do {
            playback = try PlaybackStream(
                device: options.device, sampleRate: requested, periodFrames: options.periodFrames(at: requested),
                periods: LiveAudioOptions.periods, keepOpen: open, channels: probe.channels, limit: options.openLimit,
                exactRate: options.rateIsExact)
        } catch {
            throw CLIError(error)
        }
        let rate = Double(playback.sampleRate)
        transmitter = try maker.make(sampleRate: rate)
        targetFrames = max(4 * playback.pcm.periodFrames, Int(rate * 0.15))
        let frames = max(
            transmitter.maxFrames(forBytes: Self.chunkBytes), transmitter.maxFramesForFinish,
            playback.pcm.periodFrames + transmitter.restOvershoot)
        samples = [Float](repeating: 0, count: frames * transmitter.channels)
        if verbose {
            let p = playback.pcm
            Diagnostics.info(
                "\(p.device): playback \(p.rateText), \(p.channels) channel(s), \(p.format.rawValue), "
                    + "period \(p.periodFrames) frames (\(Diagnostics.number(Double(p.periodFrames) * 1000 / Double(p.sampleRate))) ms), "
                    + "buffer \(p.bufferFrames) frames\(open ? ", kept open" : ""); \(maker.describe(transmitter))")
        }
    }

    func start() { playback.start() }

    /// Queues `bytes` as characters of the current burst (opening one if needed). After a
    /// stop signal the rest is dropped, so SIGINT ends a long send within a ring's length.
    mutating func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(CLIError) {
        var i = 0
        while i < bytes.count && !StopSignal.isRequested {
            let part = UnsafeBufferPointer(rebasing: bytes[i..<min(i + Self.chunkBytes, bytes.count)])
            let n = samples.withUnsafeMutableBufferPointer { transmitter.encode(part, into: $0.baseAddress!) }
            try queue(n)
            i += part.count
            bytesSent += part.count
        }
        signalEnd = framesRendered
    }

    /// Closes the burst with its postamble.
    mutating func endBurst() throws(CLIError) {
        let n = samples.withUnsafeMutableBufferPointer { transmitter.finishBurst(into: $0.baseAddress!) }
        try queue(n)
        if n > 0 { signalEnd = framesRendered }
        if !transmitter.restIsSignal { playback.endBurst() }
    }

    /// Keeps a resting line that carries a signal queued up to ``targetFrames``; call at
    /// least every 100 ms. Nothing to do for FSK.
    mutating func pump() throws(CLIError) {
        guard transmitter.restIsSignal else { return }
        while playback.pendingFrames < targetFrames && !StopSignal.isRequested {
            try rest(playback.pcm.periodFrames)
        }
    }

    /// Queues at least `frames` frames of the resting line.
    mutating func rest(_ frames: Int) throws(CLIError) {
        var left = frames
        let period = playback.pcm.periodFrames
        while left > 0 {
            let ask = min(left, period)
            let n = samples.withUnsafeMutableBufferPointer { transmitter.rest(atLeast: ask, into: $0.baseAddress!) }
            try queue(n)
            left -= n
        }
    }

    /// Seconds of bytes a caller feeding a long input a chunk at a time (term, serial) keeps
    /// queued beyond the resting line: enough to keep the line busy, short enough that its
    /// loop keeps reading the capture.
    static var queueAheadSeconds: Double { 0.25 }

    /// True when another chunk of bytes may be queued: the ring holds less than
    /// ``queueAheadSeconds`` beyond ``targetFrames``. Counted in the ring alone: the device's
    /// and the server's buffers behind it grow with the latency (a HiJack line kept at its
    /// target behind a 100 ms buffer already filled a quarter of a second, and term never
    /// sent).
    var hasRoom: Bool {
        playback.pendingFrames < targetFrames + Int(Self.queueAheadSeconds * Double(playback.sampleRate))
    }

    /// True when every burst queued has left the ring for the device (devices and servers
    /// may start late, so this follows the player rather than a clock).
    var isIdle: Bool { Int64(playback.playedFrames) >= signalEnd }

    /// Seconds `bytes` bytes take on the wire.
    func airSeconds(bytes: Int) -> Double { Double(bytes) * transmitter.secondsPerByte }

    /// Closes the burst, adds `tail` seconds of resting line, lets everything play, stops.
    mutating func finish(tail: Double = 0) throws(CLIError) {
        try endBurst()
        if transmitter.restIsSignal && tail > 0 { try rest(Int(tail * Double(playback.sampleRate))) }
        playback.endBurst()
        do { try playback.finish() } catch { throw CLIError(error) }
    }

    private mutating func queue(_ frames: Int) throws(CLIError) {
        guard frames > 0 else { return }
        let count = frames * transmitter.channels
        do {
            try samples.withUnsafeBufferPointer { b throws(ALSAError) in
                try playback.write(UnsafeBufferPointer(rebasing: b[0..<count]))
            }
        } catch {
            throw CLIError(error)
        }
        framesRendered += Int64(frames)
    }

    var counters: String {
        "\(bytesSent) bytes sent, \(playback.playedFrames) frames played, \(playback.silenceFrames) frames of filler silence, \(playback.underruns) underruns recovered, \(playback.isRealTime ? "real-time" : "ordinary") priority"
    }
}
