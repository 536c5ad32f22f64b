import CommandLineText
import ModemDSP
import ModemDecoding
import ModemSpectrum

/// The `-v` and `-vv` lines of decoding, the same for files and live input: one per
/// burst, one per character, and a closing summary.
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

    /// `-vv`: one character.
    func trace(_ e: ModemEvent, rate: Double) {
        var line = "  \(Diagnostics.seconds(e.startSample, rate: rate)) \(e.kind) 0x\(String(e.value, radix: 16)) "
        switch e.metrics {
        case .fsk(let m):
            line +=
                "Eb/N0 \(Diagnostics.number(m.ebN0)) dB level \(Diagnostics.number(decibels(power: m.signalPower * 2))) dBFS "
                + "mark \(Diagnostics.number(m.markFrequency, 0)) space \(Diagnostics.number(m.spaceFrequency, 0))"
        case .hijack(let m):
            line += "\(Diagnostics.number(m.baud, 1)) baud\(m.inverted ? " inverted" : "")"
        }
        Diagnostics.info(line)
    }

    /// `-v`: one burst, with what observers measured appended.
    func burst(_ burst: BurstTracker.Summary, rate: Double, observations: [BurstObservation]) {
        guard verbose else { return }
        var line = "burst at \(Diagnostics.seconds(burst.startSample, rate: rate)): \(burst.bytes) bytes, "
        if burst.baud.isFinite {
            line +=
                "\(Diagnostics.number(burst.baud, 1)) baud, \(burst.inverted == true ? "inverted line" : "normal polarity"), "
        } else {
            line += "level \(Diagnostics.number(decibels(power: burst.signalPower * 2))) dBFS peak, "
            if let baud {
                // Eb/N0 less the ratio of the full band to the bit rate: the SNR over 0 to fs/2.
                let fullBandSNR = burst.ebN0 - decibels(power: rate / 2 / baud)
                line += "SNR \(Diagnostics.number(fullBandSNR)) dB (Eb/N0 \(Diagnostics.number(burst.ebN0)) dB), "
            } else {
                line += "Eb/N0 \(Diagnostics.number(burst.ebN0)) dB, "
            }
            line +=
                "mark \(Diagnostics.number(burst.markFrequency, 0)) Hz, space \(Diagnostics.number(burst.spaceFrequency, 0)) Hz, "
        }
        line +=
            "\(burst.framingErrors) framing errors\(burst.parityErrors > 0 ? ", \(burst.parityErrors) parity errors" : "")"
        Diagnostics.info(line + observations.map(Self.text).joined())
    }

    /// An observation as appended to a burst's `-v` line.
    static func text(_ observation: BurstObservation) -> String {
        switch observation {
        case .spectrum(let mark, let space):
            func tone(_ t: ToneMeasurement?) -> String {
                t.map { "\(Diagnostics.number($0.frequency, 1)) Hz at \(Diagnostics.number($0.levelDBFS, 1)) dBFS" }
                    ?? "not found"
            }
            return "; spectrum: mark \(tone(mark)), space \(tone(space))"
        }
    }

    /// `-v`: what one input (or a live session) held, e.g. `hello.wav: softmodem-1225, 12
    /// bytes, 0 parity errors, 0 framing errors, 1 burst`.
    func summary(_ name: String, _ stats: DecodeStats, channel: Int?, channels: Int, extra: String = "") {
        guard verbose else { return }
        var line =
            "\(name): \(modemName), \(stats.bytes) bytes, \(stats.parityErrors) parity errors, "
            + "\(stats.framingErrors) framing errors, \(stats.bursts) burst\(stats.bursts == 1 ? "" : "s")"
        if channels > 1, let channel { line += ", channel \(channel + 1)" }
        if let baud = stats.baud { line += ", \(Diagnostics.number(baud, 1)) baud" }
        if let inverted = stats.inverted { line += inverted ? ", inverted line" : ", normal polarity" }
        Diagnostics.info(line + extra)
    }
}
