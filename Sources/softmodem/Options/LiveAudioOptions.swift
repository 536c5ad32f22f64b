import ArgumentParser
import ModemALSA
import ModemLive

/// Device, rate and latency for the live-audio commands (tx, rx, term, level).
struct LiveAudioOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "ALSA device: default, pulse, hw:CARD,DEV, plughw:CARD,DEV (see 'softmodem devices').", valueName: "name"))
    var device = "default"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Device sample rate in Hz, exactly (default: PipeWire's graph rate on default, pulse and pipewire; else 44100, or the device's own rate when it cannot run at 44100).",
            valueName: "hz"))
    var rate: Int?

    /// The rate asked of the device when `--rate` is not given: the home rate of the
    /// profiles (each bit holds whole cycles of both tones there).
    static let defaultRate = 44_100

    /// The rate asked of `device` (by default ``device``) for `direction`: `--rate`, else the
    /// sound server's when the device goes through one (no resampler on the way), else
    /// ``defaultRate``.
    func requestedRate(_ direction: ALSADirection, device: String? = nil) -> Int {
        rate ?? ServerRate.rate(of: device ?? self.device, direction) ?? Self.defaultRate
    }

    /// True when `--rate` chose the rate; otherwise a device that cannot run at the default
    /// runs at its own rate (``ALSARequest/rateIsExact``).
    var rateIsExact: Bool { rate != nil }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Device buffer in milliseconds, split into 4 periods (default 40: 10 ms periods; 100 through PipeWire).",
            valueName: "ms"))
    var latency: Double?

    static let periods = 4

    /// The buffer asked when `--latency` is not given: 10 ms periods, short enough for a
    /// prompt echo and a reply within a byte or two.
    static let defaultLatency = 40.0

    /// The buffer asked through PipeWire when `--latency` is not given. PipeWire runs its
    /// whole graph at the shortest period any stream asks (rounded down to a power of two):
    /// our 10 ms made it 256 frames (5.8 ms) at 44.1 kHz, and on a two-core virtual machine
    /// a stream woken more than a cycle late then got a cycle of silence in its place, with
    /// no underrun reported to anyone. 1,000 bytes at 2450 baud lost bytes in 6 of 6 runs at
    /// 256 frames, 1 of 5 at 512, none of 10 at 1,024. 100 ms gives 25 ms periods, so a
    /// 1,024-frame graph (21-23 ms) at 44.1 and 48 kHz: the quantum PipeWire runs desktops
    /// at anyway.
    static let pipeWireLatency = 100.0

    /// The buffer in milliseconds for `device`: `--latency`, else ``pipeWireLatency`` when
    /// the device reaches a PipeWire server, else ``defaultLatency``.
    func latency(for device: String) -> Double {
        latency ?? (ServerRate.isPipeWire(device) ? Self.pipeWireLatency : Self.defaultLatency)
    }

    /// Why `latency` (milliseconds) cannot be a device buffer, or nil when it can: the one
    /// check behind every command's `--latency`.
    static func latencyProblem(_ latency: Double?) -> String? {
        guard let latency, !(latency.isFinite && (4...2000).contains(latency)) else { return nil }
        return "--latency must be 4 to 2000 ms"
    }

    func validate() throws {
        if let problem = Self.latencyProblem(latency) { throw ValidationError(problem) }
        if let rate, !(1...1_000_000).contains(rate) { throw ValidationError("--rate must be 1 to 1000000 Hz") }
    }

    /// How long a device may take to open: a stopped sound server is reported after this,
    /// and SIGINT or SIGTERM end the wait at once.
    var openLimit: ALSAOpenLimit { ALSAOpenLimit(seconds: 5, isCancelled: { StopSignal.isRequested }) }

    /// Frames per period for the latency of `device` (by default ``device``) at `rate`.
    func periodFrames(at rate: Int, device: String? = nil) -> Int {
        max(16, Int(Double(rate) * latency(for: device ?? self.device) / 1000 / Double(Self.periods)))
    }

    /// The live session these options describe on ALSA: both directions on ``device`` at
    /// the rates and periods above, the monotonic clock, the process's stop signal, and
    /// `notices` for what happens meanwhile.
    /// `playback` and `capture` name other devices for those directions (`loopback`).
    func context(notices: NoticePrinter, playback: String? = nil, capture: String? = nil) -> LiveContext {
        let (playback, capture) = (playback ?? device, capture ?? device)
        let captureRate = requestedRate(.capture, device: capture)
        let playbackRate = requestedRate(.playback, device: playback)
        return LiveContext(
            system: ALSAAudioSystem(openLimit: openLimit),
            capture: CaptureRequest(
                device: capture, sampleRate: captureRate, rateIsExact: rateIsExact,
                periodFrames: periodFrames(at: captureRate, device: capture), periods: Self.periods),
            playback: PlaybackRequest(
                device: playback, sampleRate: playbackRate, rateIsExact: rateIsExact,
                periodFrames: periodFrames(at: playbackRate, device: playback), periods: Self.periods),
            clock: MonotonicClock(), stop: StopSignal.flag, notices: notices)
    }
}
