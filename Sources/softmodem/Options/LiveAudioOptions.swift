import ArgumentParser
import ModemALSA

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
            "Device buffer in milliseconds, split into 4 periods (default 40: 10 ms periods).", valueName: "ms"))
    var latency: Double = 40

    static let periods = 4

    func validate() throws {
        guard latency.isFinite, (4...2000).contains(latency) else {
            throw ValidationError("--latency must be 4 to 2000 ms")
        }
        if let rate, !(1...1_000_000).contains(rate) { throw ValidationError("--rate must be 1 to 1000000 Hz") }
    }

    /// How long a device may take to open: a stopped sound server is reported after this,
    /// and SIGINT or SIGTERM end the wait at once.
    var openLimit: ALSAOpenLimit { ALSAOpenLimit(seconds: 5, isCancelled: { StopSignal.isRequested }) }

    /// Frames per period for the requested latency at `rate`.
    func periodFrames(at rate: Int) -> Int { max(16, Int(Double(rate) * latency / 1000 / Double(Self.periods))) }
}
