/// The capture side of a ``MemoryAudioSystem``.
final class MemoryCaptureDevice: CaptureDevice {
    private let system: MemoryAudioSystem
    private let generation: Int
    let info: AudioDeviceInfo

    /// The card's overruns when this stream opened: each stream counts its own.
    private let overrunsAtOpen: Int
    private let droppedAtOpen: Int64

    init(_ system: MemoryAudioSystem, generation: Int) {
        self.system = system
        self.generation = generation
        overrunsAtOpen = system.overruns
        droppedAtOpen = system.captureDropped
        info = AudioDeviceInfo(
            name: system.name, sampleRate: system.sampleRate, channels: 1, format: "FLOAT_LE",
            periodFrames: system.periodFrames, bufferFrames: 4 * system.periodFrames)
    }

    deinit { system.captureHeld = false }

    var latencyFrames: Int { info.bufferFrames }
    var overruns: Int { system.overruns - overrunsAtOpen }
    var droppedFrames: Int { Int(system.captureDropped - droppedAtOpen) }
    var capturedFrames: Int { Int(system.captured) }
    var isRealTime: Bool { false }

    func start() {
        system.render()
        system.capturing = true
    }

    func stop() { system.capturing = false }

    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws(AudioDeviceError) -> Int {
        try system.check(generation)
        system.render()
        let deadline = system.clock.now() + max(0, timeout)
        while system.captureQueue.count == system.captureRead && system.clock.now() < deadline {
            system.wait(upTo: deadline - system.clock.now())
            try system.check(generation)
        }
        let n = min(buffer.count, system.captureQueue.count - system.captureRead)
        for i in 0..<n { buffer[i] = system.captureQueue[system.captureRead + i] }
        system.captureRead += n
        return n
    }
}

/// The playback side of a ``MemoryAudioSystem``.
final class MemoryPlaybackDevice: PlaybackDevice {
    private let system: MemoryAudioSystem
    private let generation: Int
    let info: AudioDeviceInfo
    let channels: Int
    private var playedAtOpen: Int64
    private var silenceAtOpen: Int64

    init(_ system: MemoryAudioSystem, generation: Int, channels: Int) {
        self.system = system
        self.generation = generation
        self.channels = channels
        info = AudioDeviceInfo(
            name: system.name, sampleRate: system.sampleRate, channels: channels, format: "FLOAT_LE",
            periodFrames: system.periodFrames, bufferFrames: 4 * system.periodFrames)
        playedAtOpen = system.played
        silenceAtOpen = system.silence
    }

    /// Frames the ring holds before a write waits: one second, as ``PlaybackRequest/ringSeconds``.
    private var ringFrames: Int { system.sampleRate }

    deinit { system.playbackHeld = false }

    var underruns: Int { 0 }
    var playedFrames: Int { Int(system.played - playedAtOpen) }
    var silenceFrames: Int { Int(system.silence - silenceAtOpen) }
    /// What the card has not taken yet, once it has caught up with the clock: a caller that
    /// waited on the clock itself (``LiveClock/sleep(_:)``) sees the ring drain as on a card.
    var pendingFrames: Int {
        system.render()
        return system.pendingPlayFrames
    }
    var queuedSeconds: Double { Double(pendingFrames + info.bufferFrames) / Double(info.sampleRate) }
    var isRealTime: Bool { false }

    func start() {
        system.render()
        system.playing = true
    }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioDeviceError) {
        try system.check(generation)
        system.playQueue.append(contentsOf: samples)
        while system.playing && pendingFrames > ringFrames {
            system.wait(upTo: 1)
            try system.check(generation)
        }
    }

    func endBurst() {}

    func check() throws(AudioDeviceError) { try system.check(generation) }

    func finish() throws(AudioDeviceError) {
        while system.playing && pendingFrames > 0 {
            system.wait(upTo: 1)
            try system.check(generation)
        }
        // What the device still holds plays out too.
        system.wait(upTo: Double(info.bufferFrames) / Double(info.sampleRate))
        system.playing = false
    }

    func abort() {
        system.playing = false
        system.playQueue.removeAll()
        system.playRead = 0
    }
}
