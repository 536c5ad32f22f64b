public import ModemCalibration
import ModemDecoding

/// `softmodem loopback`'s human report: what was measured, the byte tests and the verdict
/// with its advice, as aligned lines for stderr.
public enum LoopbackTable {
    /// The whole report as lines ending in a newline; `devices` names the path ("pulse" or
    /// "a -> b"), `verbose` adds the response table. A path that returned no signal gets
    /// only the lines that say so, and the verdict.
    public static func render(_ r: LoopbackReport, devices: String, verbose: Bool) -> String {
        let m = r.measurements
        var lines = ["loopback: \(devices) at \(Int(m.sampleRate)) Hz"]
        func row(_ name: String, _ value: String) { lines.append("  " + name.padding(17) + value) }
        guard m.signalReturned else {
            row("signal", "nothing came back (chirp clarity \(n(m.chirpClarity)), needs 8)")
            row("noise floor", "\(n(m.noiseFloorDBFS)) dBFS")
            return (lines + verdict(r)).joined(separator: "\n") + "\n"
        }
        row("latency", m.latencySeconds.map { "\(n($0 * 1000, 2)) ms round trip" } ?? "-")
        row(
            "clock drift",
            m.driftPPM.map {
                signed($0, 1) + " ppm" + (m.chirpDriftPPM.map { " (chirps: " + signed($0, 1) + " ppm)" } ?? "")
            } ?? "-")
        if let e = m.resampler {
            row(
                "resampler",
                (e.detected ? "yes" : "none found") + " (top of band "
                    + (e.topCutDB.map { signed($0, 1) + " dB" } ?? "-")
                    + ", delay fraction \(n(e.fractionalDelay, 2)) sample, chirp residual \(n(e.residualDB)) dB)")
        }
        row(
            "noise floor",
            (m.noiseFloorDBFS <= -199 ? "digital silence" : "\(n(m.noiseFloorDBFS)) dBFS") + "; hum "
                + (m.humFrequency.map { "\(Int($0)) Hz at \(n(m.humDBFS)) dBFS" } ?? "none"))
        row(
            "gain at 1 kHz", (m.gainDB.map { signed($0, 1) + " dB" } ?? "-") + (m.inverted ? ", polarity inverted" : "")
        )
        let band = ResponseSummary(m.response)
        let spread = m.response.map(\.relativeDB)
        var response =
            "band " + (band.lowEdge.map(hz) ?? "-") + " to " + (band.highEdge.map(hz) ?? "-")
            + " (within 6 dB of 1 kHz)"
        if let lo = spread.min(), let hi = spread.max() {
            response += ", " + signed(lo, 1) + " to " + signed(hi, 1) + " dB over the sweep"
        }
        if !band.notches.isEmpty { response += "; notch at " + band.notches.map(hz).joined(separator: ", ") }
        row("response", response)
        if let p = m.powerTone { row("power tone", "\(hz(p.frequency)): " + signed(p.relativeDB, 1) + " dB") }
        var levels = m.maxCleanOutputDBFS.map { "clean up to \(n($0)) dBFS out" } ?? "every step clipped"
        if let clean = m.levels.prefix(while: { !$0.clipped }).last {
            levels += " (\(n(clean.captureDBFS)) dBFS captured)"
        }
        if let clip = m.captureClipDBFS { levels += "; clips at \(n(clip)) dBFS captured" }
        row("levels", levels)
        if let a = m.agc {
            row(
                "AGC",
                (a.detected ? "yes" : "none") + ": \(n(a.playedStepDB)) dB step came back as \(n(a.capturedStepDB)) dB"
                    + (a.detected
                        ? ", overshoot \(n(a.overshootDB)) dB, settles in \(n(a.settleSeconds * 1000, 0)) ms" : ""))
        } else {
            row("AGC", "not measured (the quiet step is too close to the noise)")
        }
        if verbose {
            lines.append("  response (relative to 1 kHz):")
            for p in m.response { lines.append("    " + hz(p.frequency).padding(10) + signed(p.relativeDB, 1) + " dB") }
            lines.append("  level ladder (out -> captured, peak, distortion):")
            for s in m.levels {
                lines.append(
                    "    \(n(s.outputDBFS)) dBFS".padding(14)
                        + "\(n(s.captureDBFS)) dBFS, peak \(n(s.capturePeakDBFS)) dBFS, "
                        + "harmonics \(n(s.distortionDB)) dB" + (s.clipped ? ", clipped" : ""))
            }
        }
        if !r.bytes.isEmpty {
            lines.append("  byte test at \(n(r.bytes[0].levelDBFS)) dBFS:")
            lines.append(
                "    " + "modem".padding(16) + "sent".leftPadding(6) + "received".leftPadding(10)
                    + "errors".leftPadding(8))
            for b in r.bytes {
                lines.append(
                    "    " + b.modem.padding(16) + "\(b.sent)".leftPadding(6) + "\(b.received)".leftPadding(10)
                        + "\(b.byteErrors)".leftPadding(8) + (b.passed ? "  ok" : "  FAIL"))
            }
        }
        return (lines + verdict(r)).joined(separator: "\n") + "\n"
    }

    private static func verdict(_ r: LoopbackReport) -> [String] {
        ["verdict: \(r.verdict.status.rawValue)"] + LoopbackAdvice.lines(r.verdict).map { "  - " + $0 }
    }

    static func n(_ x: Double, _ decimals: Int = 1) -> String { fixed(x, decimals) }
    static func signed(_ x: Double, _ decimals: Int) -> String { (x >= 0 ? "+" : "") + n(x, decimals) }
    static func hz(_ f: Double) -> String { f >= 1000 ? n(f / 1000, 2) + " kHz" : n(f, 0) + " Hz" }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
    fileprivate func leftPadding(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
