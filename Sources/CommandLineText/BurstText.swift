public import ModemDSP
public import ModemDecoding
import ModemSpectrum

/// The `-v` and `-vv` lines of decoding, the same for files and live input: one per
/// burst, one per character, and a closing summary.
public enum BurstText {
    /// "0.123 s": a time in samples at `rate`, to the millisecond.
    public static func seconds(_ samples: Int64, rate: Double) -> String {
        cFormat("%.3f s", Double(samples) / rate)
    }

    /// `-vv`: one character, with its Eb/N0, level and tones (FSK) or its bit rate (HiJack).
    public static func trace(_ e: ModemEvent, rate: Double) -> String {
        var line = "  \(seconds(e.startSample, rate: rate)) \(e.kind) 0x\(String(e.value, radix: 16)) "
        switch e.metrics {
        case .fsk(let m):
            line +=
                "Eb/N0 \(fixed(m.ebN0)) dB level \(fixed(Decibels.power(m.signalPower * 2))) dBFS "
                + "mark \(fixed(m.markFrequency, 0)) space \(fixed(m.spaceFrequency, 0))"
        case .hijack(let m):
            line += "\(fixed(m.baud, 1)) baud\(m.inverted ? " inverted" : "")"
        }
        return line
    }

    /// `-v`: one burst, with what observers measured appended.
    ///
    /// - Parameter baud: the bit rate the modem was set to, for the full-band SNR; nil (the
    ///   modem found each burst's rate) gives Eb/N0 alone.
    public static func burst(
        _ burst: BurstTracker.Summary, rate: Double, baud: Double?, observations: [BurstObservation]
    ) -> String {
        var line = "burst at \(seconds(burst.startSample, rate: rate)): \(burst.bytes) bytes, "
        if burst.baud.isFinite {
            line += "\(fixed(burst.baud, 1)) baud, \(burst.inverted == true ? "inverted line" : "normal polarity"), "
        } else {
            line += "level \(fixed(Decibels.power(burst.signalPower * 2))) dBFS peak, "
            if let baud {
                // Eb/N0 less the ratio of the full band to the bit rate: the SNR over 0 to fs/2.
                let fullBandSNR = burst.ebN0 - Decibels.power(rate / 2 / baud)
                line += "SNR \(fixed(fullBandSNR)) dB (Eb/N0 \(fixed(burst.ebN0)) dB), "
            } else {
                line += "Eb/N0 \(fixed(burst.ebN0)) dB, "
            }
            line += "mark \(fixed(burst.markFrequency, 0)) Hz, space \(fixed(burst.spaceFrequency, 0)) Hz, "
        }
        line +=
            "\(burst.framingErrors) framing errors\(burst.parityErrors > 0 ? ", \(burst.parityErrors) parity errors" : "")"
        return line + observations.map(text).joined()
    }

    /// An observation as appended to a burst's `-v` line.
    public static func text(_ observation: BurstObservation) -> String {
        switch observation {
        case .spectrum(let mark, let space):
            func tone(_ t: ToneMeasurement?) -> String {
                t.map { "\(fixed($0.frequency, 1)) Hz at \(fixed($0.levelDBFS, 1)) dBFS" } ?? "not found"
            }
            return "; spectrum: mark \(tone(mark)), space \(tone(space))"
        }
    }

    /// What a decode's statistics hold: "12 bytes, 0 parity errors, 0 framing errors, 1
    /// burst", then the bit rate and polarity when known.
    ///
    /// - Parameter channel: named (counting from 1) only when `channels` is over 1.
    public static func counts(_ stats: DecodeStats, channel: Int? = nil, channels: Int = 1) -> String {
        var line =
            "\(stats.bytes) bytes, \(stats.parityErrors) parity errors, "
            + "\(stats.framingErrors) framing errors, \(stats.bursts) burst\(stats.bursts == 1 ? "" : "s")"
        if channels > 1, let channel { line += ", channel \(channel + 1)" }
        if let baud = stats.baud { line += ", \(fixed(baud, 1)) baud" }
        if let inverted = stats.inverted { line += inverted ? ", inverted line" : ", normal polarity" }
        return line
    }

    /// The stderr line for one input whose characters were dropped as damaged (framing or
    /// parity errors), or nil when none were.
    public static func damaged(_ name: String, _ stats: DecodeStats) -> String? {
        let errors = stats.framingErrors + stats.parityErrors
        guard errors > 0 else { return nil }
        return "\(name): \(errors) damaged character(s) dropped (\(stats.framingErrors) framing, "
            + "\(stats.parityErrors) parity errors); the bytes around them may be wrong"
    }
}
