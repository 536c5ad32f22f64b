import CommandLineText
import Foundation
import ModemDSP
public import ModemReport

/// One line of a report's verdict: what is wrong (or right) and what to do about it.
public struct Hint: Sendable, Equatable {
    /// How much a hint matters: something to fix, something to check, or all is well.
    public enum Severity: String, Sendable { case problem, warning, good }
    /// A stable identifier, e.g. "clipping", for tests and page anchors.
    public var id: String
    /// How much the hint matters.
    public var severity: Severity
    /// The sentence shown: the finding, the figure it rests on, and what to do.
    public var text: String
}

/// The verdict on a recording, computed from what was measured: every hint states the
/// figure it rests on.
public enum Verdict {
    /// The hints for `a`, in the order of the checks; a silent recording gets the silence hint
    /// alone, and a `good` hint ends the list when bytes decoded with no problem found.
    public static func hints(for a: RecordingAnalysis) -> [Hint] {
        var hints: [Hint] = []
        func add(_ id: String, _ s: Hint.Severity, _ t: String) { hints.append(Hint(id: id, severity: s, text: t)) }
        let levels = a.rows.map { a.level(from: $0.summary.startSample, to: $0.summary.endSample) }.filter(\.isFinite)
        let burstLevel = median(levels)

        if case .silence = a.diagnosis {
            add(
                "silence", .problem,
                "The recording is silent (digital zero): check the input device and that the cable is plugged into the input."
            )
            return hints
        }
        if a.clippedFraction >= SignalSurvey.clippingFraction {
            add(
                "clipping", .problem,
                "Clipping: \(f(a.clippedFraction * 100, 2)) % of samples are flat tops at full scale (peak \(f(Decibels.amplitude(Double(a.peak)), 1)) dBFS). Lower the capture gain or the sender's volume until the peaks stay under -3 dBFS."
            )
        }
        if let burstLevel, burstLevel < -40 {
            add(
                "level-low", .warning,
                "Level low: the bursts average \(f(burstLevel, 1)) dBFS. Raise the capture gain or the sender's volume (aim for -20 to -6 dBFS)."
            )
        } else if levels.isEmpty, case .tooQuiet(let level) = a.diagnosis {
            add(
                "level-low", .problem,
                "Level too low: the loudest stretch is \(f(level, 1)) dBFS, too weak to carry a modem. Raise the capture gain and check the cable."
            )
        }
        if abs(a.dcOffset) >= 0.02 {
            add(
                "dc", .warning,
                "DC offset: the signal sits \(f(a.dcOffset * 100, 1)) % of full scale off zero. Harmless to the decoder, but a sign of a faulty input or missing coupling capacitor."
            )
        }
        if let hum = a.hum(), hum.level > -60, hum.level > (burstLevel ?? 0) - 30 {
            add(
                "hum", .warning,
                "Hum at about \(Int(hum.frequency.rounded())) Hz, \(f(hum.level, 1)) dBFS\(burstLevel.map { " (\(f($0 - hum.level, 0)) dB under the signal)" } ?? ""): a ground loop or mains pickup; unplug chargers, use a shorter or shielded cable."
            )
        }
        agc(a, add)
        offFrequency(a, add)
        notches(a, add)
        profile(a, add)
        let characters = a.bytes + a.framingErrors + a.parityErrors
        if a.bytes > 0, Double(a.framingErrors + a.parityErrors) > 0.1 * Double(characters) {
            add(
                "errors", .warning,
                "\(a.framingErrors) framing and \(a.parityErrors) parity errors against \(a.bytes) good characters: a weak or distorted signal, or a wrong character format."
            )
        }
        if !hints.contains(where: { $0.severity == .problem }) && a.bytes > 0 {
            let ebN0 = median(a.rows.compactMap { $0.summary.signalPower > 0 ? $0.summary.ebN0 : nil })
            add(
                "ok", .good,
                "Decoded \(a.bytes) bytes in \(a.rows.count + a.rowsOmitted) burst(s)\(burstLevel.map { " at \(f($0, 1)) dBFS" } ?? "")\(ebN0.map { ", Eb/N0 \(f($0, 1)) dB" } ?? "")."
            )
        }
        return hints
    }

    /// The gain moves with the signal: the noise right after a burst is much quieter than
    /// just before the next (the gain was pulled down and recovers), or the level climbs
    /// within bursts.
    private static func agc(_ a: RecordingAnalysis, _ add: (String, Hint.Severity, String) -> Void) {
        let bucket = Double(a.overview.bucketLength) / a.sampleRate
        guard bucket <= 0.05, a.rows.count >= 2 else { return }
        let window = Int64(0.2 * a.sampleRate)
        let guardBand = Int64(0.05 * a.sampleRate)
        var drops: [Double] = []
        for (r, next) in zip(a.rows, a.rows.dropFirst())
        where next.summary.startSample - r.summary.endSample > 2 * window + 4 * guardBand {
            let after = a.level(from: r.summary.endSample + guardBand, to: r.summary.endSample + guardBand + window)
            let before = a.level(
                from: next.summary.startSample - guardBand - window, to: next.summary.startSample - guardBand)
            if after.isFinite && before.isFinite { drops.append(before - after) }
        }
        if let drop = median(drops), drop > 6 {
            add(
                "agc", .warning,
                "AGC pumping: the background is \(f(drop, 1)) dB quieter just after each burst than just before the next, so the input's gain follows the signal. Turn off automatic gain control (the phone's or sound card's) or lower the level."
            )
        }
    }

    private static func offFrequency(_ a: RecordingAnalysis, _ add: (String, Hint.Severity, String) -> Void) {
        guard let nominal = a.nominalTones else { return }
        guard let mark = median(a.rows.map(\.summary.markFrequency).filter(\.isFinite)),
            let space = median(a.rows.map(\.summary.spaceFrequency).filter(\.isFinite))
        else { return }
        let markOff = mark / nominal.mark - 1
        let spaceOff = space / nominal.space - 1
        if max(abs(markOff), abs(spaceOff)) > 0.01 {
            add(
                "off-frequency", .warning,
                "Off-frequency sender: mark \(f(mark, 0)) Hz (profile \(f(nominal.mark, 0)), \(f(markOff * 100, 1)) %), space \(f(space, 0)) Hz (profile \(f(nominal.space, 0)), \(f(spaceOff * 100, 1)) %). decode follows the sender between bursts; a crystal or sample-rate error on the board or phone causes it."
            )
        }
    }

    /// One tone much weaker than the other, or the level falling through bursts: a phone's
    /// noise suppression learning the tone as noise.
    private static func notches(_ a: RecordingAnalysis, _ add: (String, Hint.Severity, String) -> Void) {
        let ratios = a.details.compactMap { d -> Double? in
            let t = d.toneBalance
            guard t.mark > 0, t.space > 0 else { return nil }
            return Decibels.amplitude(t.mark / t.space)
        }
        if let r = median(ratios), abs(r) > 10 {
            add(
                "notch", .warning,
                "Noise suppression or a notch: the \(r > 0 ? "space" : "mark") tone arrives \(f(abs(r), 1)) dB weaker than the other. Turn off the phone's noise suppression / voice processing, or use a line input."
            )
        }
        let falls = a.details.compactMap { d -> Double? in
            let p = d.events.compactMap(\.fsk?.signalPower)
            guard p.count >= 12 else { return nil }
            let q = p.count / 4
            let first = p[0..<q].reduce(0, +) / Double(q)
            let last = p[(p.count - q)...].reduce(0, +) / Double(q)
            return Decibels.power(first / last)
        }
        if let fall = median(falls), fall > 6 {
            add(
                "fading", .warning,
                "Noise suppression: the level falls \(f(fall, 1)) dB from the start to the end of the bursts, as a phone's noise suppression does to a steady tone. Turn it off, or send shorter bursts."
            )
        } else if let fall = median(falls), fall < -6 {
            add(
                "agc", .warning,
                "AGC: the level rises \(f(-fall, 1)) dB through the bursts while the gain recovers. Turn off automatic gain control, or send a longer preamble."
            )
        }
    }

    /// What the survey heard against what was asked for: a signal some other profile fits
    /// (a problem when decoding went badly, else a warning), and what was there when nothing
    /// decoded.
    private static func profile(_ a: RecordingAnalysis, _ add: (String, Hint.Severity, String) -> Void) {
        let poor = a.bytes == 0 || a.framingErrors + a.parityErrors > a.bytes
        var found = a.diagnosis
        if case .clipping(_, let then?) = found { found = then }
        var named = false
        // The survey reads a few loud blocks: when the decode went well, only tones far from
        // the profile's (in either order) count against it.
        let tonesDiffer =
            a.nominalTones.map { n in
                let near = { (x: Double, y: Double) in ModemProfile.isWithinTolerance(x, of: y) }
                return
                    !((near(signature(found)?.mark ?? 0, n.mark) && near(signature(found)?.space ?? 0, n.space))
                    || (near(signature(found)?.mark ?? 0, n.space) && near(signature(found)?.space ?? 0, n.mark)))
            } ?? true
        // HiJack's square Manchester waves read to the survey as two tones; only a poor
        // decode says anything against it.
        if case .modem(let signature) = found, a.modem != "auto", a.modem != "hijack" || poor,
            signature.profile?.name != a.modem, poor || tonesDiffer,
            !(a.nominalTones.map {
                signature.fits(ModemProfile(name: a.modem, baud: a.nominalBaud, mark: $0.mark, space: $0.space))
            } ?? false)
        {
            named = true
            add(
                "wrong-profile", poor ? .problem : .warning,
                "Wrong profile? The signal looks like \(signature.summary), not \(a.modem): inspect or decode with \(signature.suggestion) (or --profile auto)."
            )
        }
        if a.bytes == 0 && !named {
            add("nothing-decoded", .problem, "Nothing decoded: \(found.text).")
        }
    }

    private static func signature(_ d: Diagnosis) -> ModemSignature? {
        if case .modem(let s) = d { return s }
        return nil
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }

    static func f(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
}

extension RecordingAnalysis {
    /// Mean level in dBFS (a full-scale sine reads -3) of the overview between two samples.
    public func level(from: Int64, to: Int64) -> Double {
        let n = Int64(overview.bucketLength)
        let buckets = overviewBuckets
        let first = max(0, Int((from - overview.origin) / n))
        let last = min(buckets.count, Int((to - overview.origin + n - 1) / n))
        guard last > first else { return .nan }
        var sum = 0.0
        for b in buckets[first..<last] { sum += Double(b.power) }
        return Decibels.power(sum / Double(last - first))
    }

    /// The strongest bin between 40 and 200 Hz (mains hum and its harmonics), when it
    /// stands 20 dB over 300 Hz - 3 kHz in the quiet quarter of the recording (medians over
    /// its spectrogram columns: steady hum, not the thump of bursts through a coupling
    /// capacitor).
    public func hum() -> (frequency: Double, level: Double)? {
        guard binHz > 0, averageSpectrum.count > Int(3_000 / binHz), !spectrogram.isEmpty else { return nil }
        let low = max(1, Int((40 / binHz).rounded(.up)))
        let high = Int(200 / binHz)
        guard high >= low else { return nil }
        var best = low
        for k in low...high where averageSpectrum[k] > averageSpectrum[best] { best = k }
        let band = Int(300 / binHz)...Int(3_000 / binHz)
        // Hum goes on between bursts: judge it in the quietest quarter of the columns.
        let quiet = spectrogram.sorted { $0.reduce(0, +) < $1.reduce(0, +) }.prefix(max(1, spectrogram.count / 4))
        let humPower = Verdict.median(quiet.map { Double($0[best]) }) ?? 0
        let floor = Verdict.median(quiet.map { c in band.reduce(0.0) { $0 + Double(c[$1]) } / Double(band.count) }) ?? 0
        // A tone, not the slope of a slow decay (strongest in the lowest bins): two bins
        // under it, outside its main lobe, it must have fallen by 6 dB.
        let below = Verdict.median(quiet.map { Double($0[max(0, best - 2)]) }) ?? 0
        guard humPower > 100 * floor, humPower > 4 * below, humPower > 0 else { return nil }
        return (Double(best) * binHz, Decibels.power(humPower))
    }
}
