import ModemSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Live output: the producer queues samples in a lock-free ring and a dedicated thread
/// writes them to an ALSA playback device period by period.
///
/// Mono streams (`channels: 1`, the default) copy each sample to every device channel.
/// Stereo streams (`channels: 2`) take interleaved left/right frames and play them on the
/// device's first two channels (any further device channels stay silent); the device must
/// grant at least two channels.
///
/// When the ring runs dry the thread writes silence, so the device never underruns in the
/// middle of a burst. With `keepOpen` it keeps doing so between bursts and the stream runs
/// from ``start()`` to ``finish()``, so device start-up never eats a preamble; without it,
/// the device is drained after each burst (``endBurst()``) and restarted by the next one.
/// Failed writes follow the module's retry policy (``ALSARetryPolicy``): recovered xruns are
/// counted in ``underruns``; an error the policy does not retry ends the thread and is
/// rethrown by ``write(_:)`` and ``finish()``.
public final class PlaybackStream: @unchecked Sendable {
    // @unchecked: the PCM and scratch buffers belong to the playback thread once started;
    // everything shared with the producer is atomic or the SPSC ring.
    /// The open playback device, with what it granted; the playback thread owns its calls once
    /// started.
    public let pcm: ALSAPCM
    /// True when the device runs from ``start()`` to ``finish()``; false when it is drained after
    /// each burst.
    public let keepOpen: Bool
    /// Samples per frame the producer writes: 1 (mono, copied to every device channel) or 2.
    public let channels: Int
    /// The device's granted sample rate in Hz.
    public var sampleRate: Int { pcm.sampleRate }
    private let ring: SPSCRingBuffer
    private let dataReady = WakeSignal()
    private let spaceReady = WakeSignal()
    private let scratch: PeriodScratch
    private let finishing = Atomic<Bool>(false)
    private let aborting = Atomic<Bool>(false)
    private let idle = Atomic<Bool>(true)
    private let thread = StreamThread()
    private let underrunCount = Atomic<Int>(0)
    private let played = Atomic<Int>(0)
    private let silent = Atomic<Int>(0)
    private let delay = Atomic<Int>(0)

    /// Silence played before the first sample each time the device starts.
    public let leadInFrames: Int

    /// Opens `device` for playback. `leadIn` seconds of silence precede each start of the
    /// device (once with `keepOpen`, before every burst without it). `limit` bounds the wait
    /// for the device to open (``ALSAOpenLimit``); with `exactRate` false the device may run
    /// at its own rate instead (``ALSARequest/rateIsExact``).
    public init(
        device: String, sampleRate: Int, periodFrames: Int, periods: Int, keepOpen: Bool,
        leadIn: Double = 0.1, ringSeconds: Double = 1, channels: Int = 1, limit: ALSAOpenLimit = ALSAOpenLimit(),
        exactRate: Bool = true
    ) throws(ALSAError) {
        let wanted = min(2, max(1, channels))
        pcm = try ALSAPCM(
            ALSARequest(
                device: device, direction: .playback, sampleRate: sampleRate,
                channels: wanted, periodFrames: periodFrames, periods: periods, rateIsExact: exactRate),
            limit: limit)
        if pcm.channels < wanted {
            throw .missingChannels(
                device: device, "plays only \(pcm.channels) channel(s); \(wanted) are needed (left data, right power)")
        }
        self.channels = wanted
        self.keepOpen = keepOpen
        leadInFrames = Int(max(0, leadIn) * Double(pcm.sampleRate))
        // Power-of-two capacity keeps stereo frames whole: every write and read is even.
        ring = SPSCRingBuffer(
            minimumCapacity: wanted * max(pcm.bufferFrames * 2, Int(Double(sampleRate) * ringSeconds)))
        scratch = PeriodScratch(pcm: pcm, channels: wanted)
    }

    deinit { abort() }

    /// Underruns (and suspends) recovered by ``ALSAPCM/recover(_:)`` so far.
    public var underruns: Int { underrunCount.load(ordering: .relaxed) }
    /// True once the playback thread runs at real-time priority (see
    /// ``DedicatedThread/raiseToRealTime()``); false without the privilege.
    public var isRealTime: Bool { thread.isRealTime }
    /// Frames of signal (not filler silence) handed to the device.
    public var playedFrames: Int { played.load(ordering: .relaxed) }
    /// Frames of filler silence written while the ring was empty.
    public var silenceFrames: Int { silent.load(ordering: .relaxed) }
    /// Seconds of audio queued ahead of what the device is playing now (ring plus device
    /// buffer and any sound-server buffering, from `snd_pcm_delay`), i.e. roughly when a
    /// sample queued now will be heard.
    public var queuedSeconds: Double {
        Double(ring.availableToRead / channels + max(pcm.bufferFrames, delay.load(ordering: .relaxed)))
            / Double(pcm.sampleRate)
    }

    /// Frames queued by the producer that the playback thread has not taken yet.
    public var pendingFrames: Int { ring.availableToRead / channels }

    /// Starts the playback thread (once).
    public func start() {
        thread.start(name: "softmodem-playback") { [self] in self.loop() }
    }

    /// Producer: queues every sample (interleaved frames when ``channels`` is 2, so an even
    /// count), waiting for room. Opens a burst (see ``endBurst()``).
    /// Returns early without queuing the rest if the stream is aborted.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(ALSAError) {
        idle.store(false, ordering: .releasing)
        var done = 0
        while done < samples.count {
            try thread.check()
            if aborting.load(ordering: .relaxed) { return }
            let n = ring.write(UnsafeBufferPointer(rebasing: samples[done...]))
            done += n
            dataReady.post()
            if n == 0 { spaceReady.wait(seconds: 0.05) }
        }
    }

    /// Throws the error that ended the playback thread, if one did (a device that went away
    /// while nothing was being written).
    public func check() throws(ALSAError) { try thread.check() }

    /// Producer: the current burst is complete; without `keepOpen` the device is drained
    /// once the queued samples have played.
    public func endBurst() {
        idle.store(true, ordering: .releasing)
        dataReady.post()
    }

    /// Producer: no more samples. Waits until everything queued has played
    /// (``ALSAPCM/drain()``), then stops the thread. Throws the thread's error, or
    /// ``ALSAError/Reason/noAnswer`` when the device has not played it out within the time
    /// it should take plus ``CaptureStream/stopSeconds`` twice (a stopped sound server).
    public func finish() throws(ALSAError) {
        guard thread.isStarted else { return }
        if !finishing.exchange(true, ordering: .acquiringAndReleasing) {
            dataReady.post()
            let seconds = queuedSeconds + 2 * CaptureStream.stopSeconds
            if !thread.waitForExit(seconds: seconds) {
                throw ALSAError(
                    reason: .noAnswer, device: pcm.device, function: "snd_pcm_drain", code: 0,
                    detail:
                        "playback did not finish within \(Int(seconds.rounded(.up))) s")
            }
        }
        try thread.check()
    }

    /// Stops at once, discarding queued audio (``ALSAPCM/drop()``), waiting up to
    /// ``CaptureStream/stopSeconds`` for the thread (see ``CaptureStream/stop()``). Idempotent.
    public func abort() {
        guard thread.isStarted, !aborting.exchange(true, ordering: .acquiringAndReleasing) else {
            return
        }
        dataReady.post()
        if !finishing.exchange(true, ordering: .acquiringAndReleasing) {
            thread.waitForExit(seconds: CaptureStream.stopSeconds)
        }
    }

    private func loop() {
        let period = pcm.periodFrames
        var started = keepOpen
        if keepOpen && !writeSilence(leadInFrames) { return }
        while true {
            // Drop, drain and prepare failures below are not reported: the device is being
            // stopped (or restarted for the next burst, whose first write reports a failure).
            if aborting.load(ordering: .relaxed) {
                try? pcm.drop()
                return
            }
            if !started && ring.availableToRead > 0 {
                // Servers and codecs often lose the first milliseconds after a start
                // (sink wake-up, DC filter); silence absorbs that, not the preamble. Written
                // before the first read, which lands in the same scratch buffer.
                started = true
                if !writeSilence(leadInFrames) { return }
            }
            var n =
                ring.read(into: UnsafeMutableBufferPointer(start: scratch.mono, count: period * channels)) / channels
            if n > 0 {
                spaceReady.post()
                played.add(n, ordering: .relaxed)
            } else if finishing.load(ordering: .acquiring) {
                if started {
                    do throws(ALSAError) { try drainStarted() } catch { try? pcm.drop() }
                }
                return
            } else if keepOpen || (started && !idle.load(ordering: .acquiring)) {
                // Starved mid-burst or between bursts with --keep-open: a period of
                // silence keeps the device running instead of underrunning.
                scratch.mono.update(repeating: 0, count: period * channels)
                n = period
                silent.add(n, ordering: .relaxed)
            } else {
                if started {
                    try? drainStarted()
                    try? pcm.prepare()
                    started = false
                }
                dataReady.wait(seconds: 0.05)
                continue
            }
            if !writeMono(n) { return }
        }
    }

    /// Plays out what is queued and stops. A burst shorter than the start threshold (two
    /// periods, when a long --latency makes those longer than the lead-in) leaves the
    /// stream prepared: it is started first, so the drain never waits on a stream that
    /// does not run (the kernel starts it on drain, a plugin may not).
    private func drainStarted() throws(ALSAError) {
        try pcm.startIfPrepared()
        try pcm.drain()
    }

    /// Writes `frames` of silence, a period at a time; false if the device failed.
    private func writeSilence(_ frames: Int) -> Bool {
        var left = frames
        while left > 0 {
            let n = min(left, pcm.periodFrames)
            scratch.mono.update(repeating: 0, count: n * channels)
            if !writeMono(n) { return false }
            left -= n
        }
        return true
    }

    /// Converts and writes the first `n` frames of `mono`; false if the device failed.
    private func writeMono(_ n: Int) -> Bool {
        if channels == 1 {
            interleave(scratch.mono, frames: n, format: pcm.format, channels: pcm.channels, into: scratch.raw)
        } else {
            convertFrames(
                scratch.mono, sourceChannels: channels, frames: n, format: pcm.format, channels: pcm.channels,
                into: scratch.raw)
        }
        var offset = 0
        while offset < n {
            do throws(ALSAError) {
                offset += try pcm.write(scratch.raw + offset * pcm.channels * pcm.format.size, frames: n - offset)
                if let d = try? pcm.delay() { delay.store(d, ordering: .relaxed) }
            } catch {
                do throws(ALSAError) {
                    if try pcm.recover(error) == .xrun { underrunCount.add(1, ordering: .relaxed) }
                } catch {
                    thread.record(error)
                    spaceReady.post()
                    return false
                }
            }
        }
        return true
    }
}
