/// Stands in for a capture device that went away, so the dead one is released at once (a
/// card allows one open per direction: the new one could not be opened while the old one is
/// held). Every read fails as the device did.
final class LostCaptureDevice: CaptureDevice {
    let info: AudioDeviceInfo
    let latencyFrames: Int
    private let error: AudioDeviceError

    init(_ lost: any CaptureDevice, error: AudioDeviceError) {
        info = lost.info
        latencyFrames = lost.latencyFrames
        self.error = error
    }

    var overruns: Int { 0 }
    var droppedFrames: Int { 0 }
    var capturedFrames: Int { 0 }
    var isRealTime: Bool { false }
    func start() {}
    func stop() {}
    func read(into buffer: UnsafeMutableBufferPointer<Float>, timeout: Double) throws(AudioDeviceError) -> Int {
        throw error
    }
}

/// Stands in for a playback device that went away (see ``LostCaptureDevice``): nothing is
/// queued or played, and writes fail as the device did.
final class LostPlaybackDevice: PlaybackDevice {
    let info: AudioDeviceInfo
    let channels: Int
    private let error: AudioDeviceError

    init(_ lost: any PlaybackDevice, error: AudioDeviceError) {
        info = lost.info
        channels = lost.channels
        self.error = error
    }

    var underruns: Int { 0 }
    var playedFrames: Int { 0 }
    var silenceFrames: Int { 0 }
    var pendingFrames: Int { 0 }
    var queuedSeconds: Double { 0 }
    var isRealTime: Bool { false }
    func start() {}
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioDeviceError) { throw error }
    func endBurst() {}
    func check() throws(AudioDeviceError) {}
    func finish() throws(AudioDeviceError) {}
    func abort() {}
}
