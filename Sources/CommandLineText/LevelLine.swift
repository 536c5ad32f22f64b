public import ModemSpectrum

/// A ``LevelReading`` as one line of text for a terminal `columns` wide.
///
/// Fields, left to right: a bar from -60 to 0 dBFS (`#` up to the peak, `|` at the peak
/// hold), peak, hold, RMS, the burst's SNR and tone levels, and the advice. When the line is
/// too long, fields go in this order until it fits one column short of the width (a line
/// that reaches the last column makes some terminals wrap): RMS, tone levels, the hold
/// figure, the long advice (for its short form), half the bar, the word dBFS, the bar, the
/// SNR, the peak; what is still too long is cut. `verbose` lines are never shortened and add
/// the measured tone frequencies, the noise level and where it was measured, and the
/// burst's length.
public struct LevelLine {
    /// The profile whose tones the line reports ("softmodem-1225").
    public var profileName: String

    /// A line for readings of `profileName`'s tones.
    public init(profileName: String) {
        self.profileName = profileName
    }

    /// Bar width in characters, at full size.
    public static let barWidth = 20
    /// SNRs above this read as "above" (the meter's own floor on a perfect digital path
    /// depends on the FSK skirts, not on the path).
    public static let snrCeiling = 60.0

    private struct Layout {
        var rms = true, tones = true, hold = true, longAdvice = true
        var bar = LevelLine.barWidth, units = true, snr = true, peak = true
    }

    /// `r` as one line for a terminal `columns` wide (nil: not a terminal, never shortened),
    /// shortened as the type's documentation says.
    public func render(_ r: LevelReading, columns: Int?, verbose: Bool = false) -> String {
        var layout = Layout()
        if verbose { return text(r, layout, verbose: true) }
        guard let columns else { return text(r, layout, verbose: false) }
        let limit = max(1, columns - 1)
        let steps: [(inout Layout) -> Void] = [
            { $0.rms = false }, { $0.tones = false }, { $0.hold = false }, { $0.longAdvice = false },
            { $0.bar = LevelLine.barWidth / 2 }, { $0.units = false }, { $0.bar = 0 }, { $0.snr = false },
            { $0.peak = false },
        ]
        var line = text(r, layout, verbose: false)
        for step in steps where line.count > limit {
            step(&layout)
            line = text(r, layout, verbose: false)
        }
        return line.count > limit ? String(line.prefix(limit)) : line
    }

    private func text(_ r: LevelReading, _ layout: Layout, verbose: Bool) -> String {
        var fields: [String] = []
        let dB = layout.units ? " dBFS" : ""
        if layout.bar > 0 { fields.append(bar(r, width: layout.bar)) }
        if layout.peak { fields.append("peak \(Self.number(r.peakDBFS))" + (layout.hold || verbose ? "" : dB)) }
        if layout.hold || verbose { fields.append("hold \(Self.number(r.peakHoldDBFS))\(dB)") }
        if layout.rms || verbose { fields.append("rms \(Self.number(r.rmsDBFS))\(dB)") }
        if let b = r.burst {
            let label = b.ongoing ? "" : "last burst "
            if layout.snr || verbose { fields.append(label + "SNR " + snr(b.snr)) }
            if layout.tones || verbose {
                fields.append("mark \(Self.number(b.markDBFS)) space \(Self.number(b.spaceDBFS))\(dB)")
            }
            if verbose {
                fields.append("tones \(Self.number(b.markFrequency, 0))/\(Self.number(b.spaceFrequency, 0)) Hz")
                let source = b.noiseSource == .betweenBursts ? "between bursts" : "outside the band"
                fields.append("noise \(Self.number(b.noiseDBFS)) dBFS (\(source))")
                fields.append("burst \(Self.number(b.durationSeconds, 2)) s")
            }
        }
        if verbose, let f = r.strongestTone { fields.append("strongest \(Self.number(f, 0)) Hz") }
        if r.clippedSamples > 0 && verbose { fields.append("\(r.clippedSamples) clipped") }
        fields.append(advice(r.verdict, long: layout.longAdvice || verbose))
        return fields.joined(separator: "  ")
    }

    private func bar(_ r: LevelReading, width: Int) -> String {
        func position(_ dBFS: Double) -> Int {
            guard dBFS.isFinite else { return 0 }
            return max(0, min(width, Int(((dBFS + 60) / 60 * Double(width)).rounded())))
        }
        let peak = position(r.peakDBFS)
        let hold = position(r.peakHoldDBFS)
        var cells = [Character](repeating: ".", count: width)
        for i in 0..<peak { cells[i] = "#" }
        if hold > 0 { cells[hold - 1] = "|" }
        return "[" + String(cells) + "]"
    }

    private func snr(_ value: Double?) -> String {
        guard let value else { return "?" }
        if value > Self.snrCeiling { return ">\(Int(Self.snrCeiling)) dB" }
        return "\(Self.number(value)) dB"
    }

    /// The advice for a verdict, long (with what to do) or short.
    public func advice(_ verdict: LevelVerdict, long: Bool) -> String {
        switch verdict {
        case .clipping: return long ? "CLIPPING: turn it down" : "CLIPPING"
        case .noSignal: return long ? "no signal: turn the volume up (or check the cable)" : "no signal"
        case .weak: return long ? "weak: turn the volume up" : "weak"
        case .noProfileTones(let f):
            let strongest = f.map { " (strongest \(Self.number($0, 0)) Hz)" } ?? ""
            return long ? "no \(profileName) tones\(strongest): check the profile" : "no \(profileName) tones"
        case .noisy: return long ? "noisy: decoding will make errors" : "noisy"
        case .ok: return "ok"
        case .idle: return long ? "ok, between bursts" : "idle"
        }
    }

    static func number(_ x: Double, _ decimals: Int = 1) -> String {
        guard x.isFinite else { return x < 0 ? "-inf" : "-" }
        var scaled = x
        for _ in 0..<decimals { scaled *= 10 }
        let rounded = Int64(scaled.rounded())
        let negative = rounded < 0
        let digits = String(abs(rounded))
        guard decimals > 0 else { return (negative ? "-" : "") + digits }
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -decimals)
        return (negative ? "-" : "") + padded[..<split] + "." + padded[split...]
    }
}
