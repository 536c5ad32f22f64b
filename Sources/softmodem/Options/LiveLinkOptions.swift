import ArgumentParser
import ModemALSA
import ModemDSP
import ModemFraming

/// Device options of `send`/`receive` in live mode. Kept apart from ``LiveAudioOptions``
/// because there `--device` has a default, and here giving it is what selects live mode.
struct LiveLinkOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Run the link live on this ALSA device (default, pulse, hw:CARD,DEV), with acknowledgements.",
            valueName: "name"))
    var device: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Live: device buffer in milliseconds (default 40; 100 through PipeWire).", valueName: "ms"))
    var latency: Double?

    @Option(name: .long, help: ArgumentHelp("Live: give up after this many seconds (exit 1).", valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Live: seconds the far end needs before answering, audio path included.", valueName: "seconds"))
    var turnaround = LiveLinkOptions.defaultTurnaround

    /// Seconds the far end takes to answer when nobody says otherwise (the board's sketch
    /// waits 40 ms; a sound server adds the rest).
    static let defaultTurnaround = 0.25

    func validate() throws {
        if let problem = LiveAudioOptions.latencyProblem(latency) { throw ValidationError(problem) }
        if let timeout, !(timeout.isFinite && timeout > 0) {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
        guard turnaround.isFinite, (0...10).contains(turnaround) else {
            throw ValidationError("--turnaround must be 0 to 10 seconds")
        }
    }

    /// True when a live-only option was given without --device.
    var liveOnlyGiven: Bool {
        device == nil && (latency != nil || timeout != nil || turnaround != Self.defaultTurnaround)
    }

    /// The device options in the form the live transmitter and receiver take; `rate` nil
    /// lets a device with one rate run at it (``LiveAudioOptions/rateIsExact``).
    func audioOptions(rate: Int?) throws(CLIError) -> LiveAudioOptions {
        do {
            return try LiveAudioOptions.parse(
                ["--device", device ?? "default"] + (latency.map { ["--latency", String($0)] } ?? [])
                    + (rate.map { ["--rate", String($0)] } ?? []))
        } catch {
            throw .usage(LiveAudioOptions.message(for: error))
        }
    }
}
