/// Everything a live session takes from outside: the sound system and what to ask of it,
/// the clock, the stop request and where notices go. Built once by the caller (the command
/// line from its options, a test around a ``MemoryAudioSystem`` and a ``VirtualClock``).
public struct LiveContext {
    /// Opens the devices: ALSA for the command line, a ``MemoryAudioSystem`` in tests.
    public var system: any AudioSystem
    /// The capture asked for (its channel is set per session).
    public var capture: CaptureRequest
    /// The playback asked for (channels and keep-open are set per session).
    public var playback: PlaybackRequest
    /// Where the session reads the time (and waits, when no device blocks).
    public var clock: any LiveClock
    /// Polled by every loop; once requested, the session ends.
    public var stop: StopFlag
    /// Receives what the session reports while it runs (``LiveNotice``).
    public var notices: any LiveNoticeHandler

    /// Takes a fresh ``StopFlag`` and collects notices in a ``NoticeLog`` unless given others.
    public init(
        system: any AudioSystem, capture: CaptureRequest, playback: PlaybackRequest, clock: any LiveClock,
        stop: StopFlag = StopFlag(), notices: any LiveNoticeHandler = NoticeLog()
    ) {
        self.system = system
        self.capture = capture
        self.playback = playback
        self.clock = clock
        self.stop = stop
        self.notices = notices
    }

    /// The device name (capture's; playback uses the same device unless asked otherwise).
    public var device: String { capture.device }
}
