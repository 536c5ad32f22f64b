import CommandLineText
import ModemDSP
import ModemDecoding

/// Writes decoding's `-v` and `-vv` lines (``BurstText`` words them) on stderr, the same
/// for files and live input.
struct BurstReporter: DecodeReporting {
    let verbose: Bool
    let trace: Bool
    /// The profile name, or "hijack".
    let modemName: String
    /// The bit rate the modem was set to (nil with `--profile auto`: each burst finds its own).
    let baud: Double?

    init(verbosity: VerbosityOptions, modem: Modem) {
        self.init(verbose: verbosity.verbose, trace: verbosity.traceCharacters, modem: modem)
    }

    /// The bit rate comes from the modem's receiver factory (none for auto).
    init(verbose: Bool, trace: Bool, modem: Modem) {
        self.verbose = verbose
        self.trace = trace
        modemName = modem.name
        baud = modem.receiverFactory.fixedBaud
    }

    func note(_ note: DecodeNote) { Diagnostics.info(note.text) }

    func trace(_ e: ModemEvent, rate: Double) { Diagnostics.info(BurstText.trace(e, rate: rate)) }

    func burst(_ burst: BurstTracker.Summary, rate: Double, observations: [BurstObservation]) {
        guard verbose else { return }
        Diagnostics.info(BurstText.burst(burst, rate: rate, baud: baud, observations: observations))
    }

    /// `-v`: what one input (or a live session) held, e.g. `hello.wav: softmodem-1225, 12
    /// bytes, 0 parity errors, 0 framing errors, 1 burst`.
    func summary(_ name: String, _ stats: DecodeStats, channel: Int?, channels: Int, extra: String = "") {
        guard verbose else { return }
        Diagnostics.info(
            "\(name): \(modemName), " + BurstText.counts(stats, channel: channel, channels: channels) + extra)
    }
}
