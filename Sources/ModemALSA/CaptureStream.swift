import ModemSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Live input: a dedicated thread reads an ALSA capture device period by period and queues
/// mono samples in a lock-free ring for the consumer.
///
/// The capture thread blocks in ``ALSAPCM/read(into:frames:)``, converts to mono float (the
/// chosen channel) into buffers allocated up front, and never allocates. Failed waits and
/// reads follow the module's retry policy (``ALSARetryPolicy``): recovered xruns are counted
/// in ``overruns``; when the ring is full because the consumer fell behind, the period is
/// dropped and counted in ``droppedFrames``. An error the policy does not retry ends the
/// thread and is rethrown by the next ``read(into:timeout:)``.
public final class CaptureStream: @unchecked Sendable {
    // @unchecked: the PCM and scratch buffers belong to the capture thread once started;
    // everything shared with the consumer is atomic or the SPSC ring.
    /// The open capture device, with what it granted; the capture thread owns its calls once
    /// started.
    public let pcm: ALSAPCM
    /// The device's granted sample rate in Hz.
    public var sampleRate: Int { pcm.sampleRate }
    /// The device channel delivered to the consumer (0-based).
    public let channel: Int
    /// Frames the device may hold before they are read while the thread keeps up: the
    /// `periods` asked for (the latency), not the longer buffer behind them.
    public let latencyFrames: Int
    private let ring: SPSCRingBuffer
    private let dataReady = WakeSignal()
    private let scratch: PeriodScratch
    private let stopping = Atomic<Bool>(false)
    private let thread = StreamThread()
    private let overrunCount = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let captured = Atomic<Int>(0)

    /// Shortest device buffer a capture asks of a device that does not go through a sound
    /// server (a card, `hw:`/`plughw:`), in seconds, whatever the latency.
    ///
    /// A capture's latency is its period (each period is read as soon as it is ready); its
    /// buffer only bounds how long the thread may go unscheduled before the card overruns.
    /// Forty milliseconds (the default latency's buffer) overran twice in one 512-byte serial
    /// exchange between two bridges on a loaded two-core machine; PulseAudio itself keeps two
    /// seconds for a card, arecord half a second. The device may grant less (it rounds).
    /// Server devices keep the latency's buffer: the server buffers behind it, and the
    /// pipewire plugin's wake-ups grew later with a longer one (median character latency
    /// 7.7 ms became 9.5-11.6 ms).
    public static let minimumBufferSeconds = 0.5

    /// Opens `device` for capture. `periodFrames` sets the latency; the device buffer holds
    /// `periods` periods (on a card, at least ``minimumBufferSeconds``); the ring
    /// holds `ringSeconds` of audio so a slow consumer does not lose samples. `channel`
    /// (0-based) picks one channel of a multi-channel capture: the device is asked for
    /// `channel + 1` channels and must grant them (channel 0 lets a server down-mix to mono).
    /// `limit` bounds the wait for the device to open (``ALSAOpenLimit``); with `exactRate`
    /// false the device may run at its own rate instead (``ALSARequest/rateIsExact``).
    public init(
        device: String, sampleRate: Int, periodFrames: Int, periods: Int, ringSeconds: Double = 2,
        channel: Int = 0, limit: ALSAOpenLimit = ALSAOpenLimit(), exactRate: Bool = true
    ) throws(ALSAError) {
        pcm = try ALSAPCM(
            ALSARequest(
                device: device, direction: .capture, sampleRate: sampleRate,
                channels: max(0, channel) + 1, periodFrames: periodFrames,
                periods: SoundServerRates.reachesServer(device: device)
                    ? periods : Self.periods(periods, of: periodFrames, at: sampleRate),
                rateIsExact: exactRate),
            limit: limit)
        if pcm.channels <= channel {
            throw .missingChannels(
                device: device, "captures only \(pcm.channels) channel(s); channel \(channel + 1) does not exist")
        }
        self.channel = max(0, channel)
        latencyFrames = min(pcm.bufferFrames, max(1, periods) * pcm.periodFrames)
        ring = SPSCRingBuffer(minimumCapacity: max(pcm.bufferFrames * 2, Int(Double(sampleRate) * ringSeconds)))
        scratch = PeriodScratch(pcm: pcm)
    }

    deinit { stop() }

    /// `periods`, or more when that many periods of `periodFrames` fall short of
    /// ``minimumBufferSeconds`` at `sampleRate`.
    static func periods(_ periods: Int, of periodFrames: Int, at sampleRate: Int) -> Int {
        let needed = (minimumBufferSeconds * Double(max(0, sampleRate)) / Double(max(1, periodFrames))).rounded(.up)
        return max(periods, Int(min(needed, 4096)))
    }

    /// Overruns (and suspends) recovered by ``ALSAPCM/recover(_:)`` so far.
    public var overruns: Int { overrunCount.load(ordering: .relaxed) }
    /// True once the capture thread runs at real-time priority (see
    /// ``DedicatedThread/raiseToRealTime()``); false without the privilege.
    public var isRealTime: Bool { thread.isRealTime }
    /// Frames lost because the consumer did not keep up with the ring.
    public var droppedFrames: Int { dropped.load(ordering: .relaxed) }
    /// Frames queued for the consumer so far.
    public var capturedFrames: Int { captured.load(ordering: .relaxed) }

    /// Starts the capture thread (once).
    public func start() {
        thread.start(name: "softmodem-capture") { [self] in self.loop() }
    }

    /// Seconds ``stop()`` waits for the capture thread: it sees the request within a wait
    /// (100 ms at most), and dropping the stream takes a sound server a few milliseconds.
    public static let stopSeconds = 1.0

    /// Stops capturing (``ALSAPCM/drop()``, on the capture thread) and waits up to
    /// ``stopSeconds`` for the thread to finish: a stopped sound server never answers the
    /// drop, and the caller is then leaving anyway. Idempotent.
    public func stop() {
        guard thread.isStarted, !stopping.exchange(true, ordering: .acquiringAndReleasing) else {
            return
        }
        thread.waitForExit(seconds: Self.stopSeconds)
    }

    /// Consumer: moves up to `buffer.count` mono samples into `buffer`, waiting up to
    /// `timeout` seconds for the first. Returns 0 on timeout; throws if capture failed.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws(ALSAError) -> Int {
        var n = ring.read(into: buffer)
        if n == 0 {
            try thread.check()
            dataReady.wait(seconds: timeout)
            n = ring.read(into: buffer)
        }
        return n
    }

    private func loop() {
        let period = pcm.periodFrames
        let bufferSeconds = Double(pcm.bufferFrames) / Double(pcm.sampleRate)
        var lastReturn = monotonicSeconds()
        var gaps = CaptureGapCheck(
            rate: Double(pcm.sampleRate), bufferFrames: pcm.bufferFrames, periodFrames: period)
        var position = CapturePositionCheck(rate: Double(pcm.sampleRate))
        let judgePosition = pcm.delayIsExact
        let waitMilliseconds = Int32(max(5, min(100, bufferSeconds * 500)))
        // Started here, not by a first read: the loop waits before it reads, and a prepared
        // capture stream never becomes ready on a card or the pipewire plugin
        // (``ALSAPCM/startIfPrepared()``).
        var needsStart = true
        // Nothing is left to report a failed drop to: the consumer is stopping.
        defer { try? pcm.drop() }
        while !stopping.load(ordering: .relaxed) {
            // Wait with a timeout shorter than the buffer first: a stop request is seen
            // promptly even when the source delivers nothing (an idle sound-server
            // monitor), and waking up proves this thread was not stalled meanwhile.
            let got: Int
            do throws(ALSAError) {
                if needsStart {
                    try pcm.startIfPrepared()
                    needsStart = false
                }
                got = try pcm.wait(milliseconds: waitMilliseconds) ? try pcm.read(into: scratch.raw, frames: period) : 0
            } catch {
                lastReturn = monotonicSeconds()
                do throws(ALSAError) {
                    if try pcm.recover(error) == .xrun {
                        // snd_pcm_recover leaves the stream prepared (or running, after a
                        // resume): start it again the same way as at first.
                        needsStart = true
                        position.restart()
                        overrunCount.add(1, ordering: .relaxed)
                        dataReady.post()
                    }
                    continue
                } catch {
                    thread.record(error)
                    dataReady.post()
                    return
                }
            }
            let now = monotonicSeconds()
            // Empty returns are not judged: the pipewire plugin delivers a quantum (up to
            // 23 ms) per wake-up, so a wait of half a buffer often returns empty, and judging
            // those made false gaps on a loaded machine (character latency and the level
            // meter failed in three full PipeWire passes out of three).
            if got == 0 {
                lastReturn = now
                continue
            }
            // Sound servers lose audio without reporting -EPIPE when this thread was away.
            // A stall too short for the gap check, or one it did not see (its first wait
            // returned empty), still leaves the position behind the clock for good.
            let fellBehind =
                judgePosition && position.lostSeconds(got: got, delay: try? pcm.delay(), now: now) > 0
            if gaps.lostAudio(got: got, now: now, previous: lastReturn, queued: { try? pcm.availableFrames() }) {
                overrunCount.add(1, ordering: .relaxed)
                position.rebase()
            } else if fellBehind {
                overrunCount.add(1, ordering: .relaxed)
            }
            lastReturn = now
            deinterleave(
                scratch.raw, format: pcm.format, channels: pcm.channels, channel: channel, frames: got,
                into: scratch.mono)
            let put = ring.write(UnsafeBufferPointer(start: scratch.mono, count: got))
            if put < got { dropped.add(got - put, ordering: .relaxed) }
            captured.add(put, ordering: .relaxed)
            dataReady.post()
        }
    }
}
