/// An in-memory sound card for tests and simulations: one device whose playback goes to a
/// ``MemoryFarEnd`` (and, scaled by ``echoGain``, back into its own capture, as a
/// half-duplex board or cable crosstalk does) and whose capture hears the far end.
///
/// Time is a ``VirtualClock``: it moves only when a stream would wait (a read finding no
/// whole period, a write finding the ring full, a finish draining it), so a session of
/// minutes runs in milliseconds and identically every time. Audio moves a period at a time,
/// as on a card. ``faults`` inject what real devices do: overruns, stalls longer than the
/// buffer, and the device disappearing and coming back.
///
/// Single-threaded: every stream must be used from the thread that runs the session.
public final class MemoryAudioSystem: AudioSystem, @unchecked Sendable {
    /// The one device's name: opening any other fails with ``AudioDeviceError/Reason/noSuchDevice``.
    public let name: String
    /// Frames per second every stream runs at, whatever a request asks.
    public let sampleRate: Int
    /// Frames moved at a time, as a card's period; the device buffer is four of them.
    public let periodFrames: Int
    /// The virtual clock the devices advance whenever a stream would wait.
    public let clock: VirtualClock
    /// Scheduled faults (times in clock seconds).
    public var faults: [MemoryFault] = []
    /// Our playback heard back in our capture, scaled (0: no echo).
    public var echoGain: Float = 0
    /// Frames from our playback to its echo in our capture.
    public var echoDelayFrames = 0
    /// The other end of the line (nil: the capture hears only our echo, if any).
    public var farEnd: (any MemoryFarEnd)?

    /// Seconds of our playback queued in the ring, not yet taken by the card.
    public var pendingPlaybackSeconds: Double { Double(pendingPlayFrames) / Double(sampleRate) }

    /// Frames of our playback queued in the ring, not yet taken by the card.
    var pendingPlayFrames: Int { (playQueue.count - playRead) / playChannels }

    /// Line frames rendered so far (frame `f` is at clock time `f / sampleRate`).
    private(set) var rendered: Int64 = 0
    var playQueue: [Float] = []
    var playRead = 0
    var playChannels = 1
    var playing = false
    var played: Int64 = 0
    var silence: Int64 = 0
    var captureQueue: [Float] = []
    var captureRead = 0
    var capturing = false
    /// True while a capture (playback) stream is open: released when the stream is.
    var captureHeld = false
    var playbackHeld = false
    var captured: Int64 = 0
    var overruns = 0
    /// Frames the capture ring holds (the request's ``CaptureRequest/ringSeconds``), and those
    /// lost because the reader fell further behind, as ALSA's capture thread counts them.
    var captureRingFrames = 2 * 44_100
    var captureDropped: Int64 = 0
    private var echoLine: [Float] = []
    private var firedOverruns: Set<Int> = []
    private var dropping = 0
    private var heard: [Float] = []
    private var sent: [Float] = []

    /// A device called `name` at `sampleRate`, moving `periodFrames` at a time, on `clock`.
    public init(name: String = "memory", sampleRate: Int = 44_100, periodFrames: Int = 441, clock: VirtualClock) {
        self.name = name
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.clock = clock
    }

    /// The requests a ``LiveContext`` for this device carries (4 periods).
    public var captureRequest: CaptureRequest {
        CaptureRequest(device: name, sampleRate: sampleRate, rateIsExact: true, periodFrames: periodFrames, periods: 4)
    }

    /// The playback request to match ``captureRequest`` (mono, 4 periods).
    public var playbackRequest: PlaybackRequest {
        PlaybackRequest(device: name, sampleRate: sampleRate, rateIsExact: true, periodFrames: periodFrames, periods: 4)
    }

    /// Opens the capture side, its queue empty. Throws ``AudioDeviceError/Reason/noSuchDevice`` for
    /// another name, or while a ``MemoryFault/unplug(at:seconds:)`` fault has the device gone.
    public func openCapture(_ request: CaptureRequest) throws(AudioDeviceError) -> any CaptureDevice {
        try checkOpen(request.device)
        // One open per direction, as on a card: a stream still held makes the next one busy.
        guard !captureHeld else { throw AudioDeviceError(.busy, device: name, description: "\(name): capture busy") }
        captureHeld = true
        captureQueue.removeAll()
        captureRead = 0
        captureRingFrames = max(4 * periodFrames, Int(request.ringSeconds * Double(sampleRate)))
        return MemoryCaptureDevice(self, generation: unplugs(before: clock.now()))
    }

    /// Opens the playback side with 1 or 2 channels (the request's, clamped); throws as
    /// ``openCapture(_:)`` does.
    public func openPlayback(_ request: PlaybackRequest) throws(AudioDeviceError) -> any PlaybackDevice {
        try checkOpen(request.device)
        guard !playbackHeld else { throw AudioDeviceError(.busy, device: name, description: "\(name): playback busy") }
        playbackHeld = true
        playQueue.removeAll()
        playRead = 0
        playChannels = min(2, max(1, request.channels))
        return MemoryPlaybackDevice(self, generation: unplugs(before: clock.now()), channels: playChannels)
    }

    private func checkOpen(_ device: String) throws(AudioDeviceError) {
        guard device == name else {
            throw AudioDeviceError(.noSuchDevice, device: device, description: "\(device): no such device (memory)")
        }
        if faults.contains(where: { $0.isGone(at: clock.now()) }) {
            throw AudioDeviceError(.noSuchDevice, device: device, description: "\(device): no such device (unplugged)")
        }
    }

    func unplugs(before t: Double) -> Int { faults.count { $0.unplugged(before: t) } }

    /// Throws when a stream opened in `generation` has lost its device.
    func check(_ generation: Int) throws(AudioDeviceError) {
        guard unplugs(before: clock.now()) > generation else { return }
        throw AudioDeviceError(.disconnected, device: name, description: "\(name): the device was unplugged (ENODEV)")
    }

    /// Frames due by now, in whole periods.
    private var due: Int64 {
        let frames = Int64((clock.now() * Double(sampleRate)).rounded(.down))
        return frames / Int64(periodFrames) * Int64(periodFrames)
    }

    /// Clock time of the next period boundary after what is rendered.
    var nextPeriodTime: Double { Double(rendered + Int64(periodFrames)) / Double(sampleRate) }

    /// Renders the line up to now: playback consumed, far end run, capture filled.
    func render() {
        while rendered < due { renderPeriod() }
    }

    private func renderPeriod() {
        let n = periodFrames
        let t = Double(rendered) / Double(sampleRate)
        heard.removeAll(keepingCapacity: true)
        let live = playing && !faults.contains { $0.isGone(at: t) }
        for _ in 0..<n {
            if live && playRead < playQueue.count {
                heard.append(playQueue[playRead])
                playRead += playChannels
                played += 1
            } else {
                heard.append(0)
                if live { silence += 1 }
            }
        }
        if playRead > 1 << 16 {
            playQueue.removeFirst(playRead)
            playRead = 0
        }
        sent = [Float](repeating: 0, count: n)
        if let farEnd {
            heard.withUnsafeBufferPointer { h in
                sent.withUnsafeMutableBufferPointer { s in farEnd.exchange(heard: h, sent: s, at: rendered) }
            }
        }
        echoLine.append(contentsOf: heard)
        let base = echoLine.count - n - echoDelayFrames
        for i in 0..<n where base + i >= 0 { sent[i] += echoGain * echoLine[base + i] }
        if echoLine.count > echoDelayFrames { echoLine.removeFirst(echoLine.count - echoDelayFrames) }
        rendered += Int64(n)
        guard capturing, !faults.contains(where: { $0.isGone(at: t) || $0.isStalled(at: t) }) else { return }
        for (k, fault) in faults.enumerated() {
            guard case .overrun(let at, let frames) = fault, at <= t, !firedOverruns.contains(k) else { continue }
            firedOverruns.insert(k)
            overruns += 1
            dropping += frames
        }
        captured += Int64(n)
        let skip = min(dropping, n)
        dropping -= skip
        guard skip < n else { return }
        captureQueue.append(contentsOf: sent[skip...])
        if captureQueue.count - captureRead > captureRingFrames {
            // A full ring loses the newest audio, as CaptureStream's does.
            let over = captureQueue.count - captureRead - captureRingFrames
            captureQueue.removeLast(over)
            captureDropped += Int64(over)
        }
        if captureRead > 1 << 16 {
            captureQueue.removeFirst(captureRead)
            captureRead = 0
        }
    }

    /// Moves the clock to the next period boundary, or by `limit` if that comes first.
    func wait(upTo limit: Double) {
        let step = min(limit, nextPeriodTime - clock.now())
        clock.advance(by: max(step, 1e-6))
        render()
    }
}
