import CommandLineText
public import ModemCalibration
import ModemDSP
public import ModemReport
import Plot

/// The HTML report of `softmodem loopback --report`: one self-contained page with the
/// verdict and advice, the measurements, the frequency response and level ladder as charts,
/// the byte test of each profile, and each capture's overview and spectrogram drawn as
/// `inspect` draws a recording's.
public enum LoopbackReportPage {
    /// Renders the page. `devices` names the path tested (e.g. "default" or "hw:1,0 -> hw:2,0");
    /// `captures` are the recordings to show (``CaptureOverview/analyse(name:samples:sampleRate:)``),
    /// none when they were not kept; `chartLibrary` as ``ChartLibrary/load(path:)`` gives it.
    public static func render(
        _ r: LoopbackReport, devices: String, captures: [RecordingAnalysis],
        chartLibrary: (script: String, style: String)
    ) -> String {
        let m = r.measurements
        let severity: Hint.Severity =
            switch r.verdict.status {
            case .ok: .good
            case .usable: .warning
            case .fail: .problem
            }
        let html = HTML(
            .head(
                .meta(.charset(.utf8)),
                .title("softmodem loopback: \(devices)"),
                .style(chartLibrary.style),
                .style(ReportStyle.css + LoopbackCharts.css),
                .script(.raw(ReportStyle.errorCollector)),
                .script(.raw(chartLibrary.script))
            ),
            .body(
                .h1("softmodem loopback"),
                .pre(.id("script-errors")),
                .p(.class("facts"), .text("\(devices) at \(Int(m.sampleRate)) Hz")),
                .h2("Verdict"),
                .p(
                    .class("verdict-status hint \(severity.rawValue)"), .id("verdict"),
                    .attribute(named: "data-verdict", value: r.verdict.status.rawValue),
                    .text(Self.headline(r.verdict))),
                .ul(
                    .class("verdict"),
                    .forEach(LoopbackAdvice.lines(r.verdict)) { .li(.class("hint \(severity.rawValue)"), .text($0)) }),
                .h2("Measurements"),
                .table(
                    .class("measurements"),
                    .forEach(Self.facts(m)) { .tr(.th(.class("text"), .text($0.0)), .td(.class("text"), .text($0.1))) }),
                .if(
                    !m.response.isEmpty,
                    Figures.chart(
                        "Frequency response", id: "loopback-response",
                        caption:
                            "Gain relative to 1 kHz over the sweep (log frequency); the green band is within 6 dB. "
                            + "Red points: each profile's mark and space tones, numbered as in the table below "
                            + "(green label: its byte test passed, red: failed, grey: not tested); P: HiJack's power tone."
                    )),
                .if(
                    !m.levels.isEmpty,
                    Figures.chart(
                        "Level ladder", id: "loopback-ladder",
                        caption: "A 1 kHz tone at each output level: what the capture got (tone and peak) and the "
                            + "harmonics over the tone. Red shading: clipped or compressed; dashed green: the recommended level."
                    )),
                .h2("Profiles and byte tests"),
                Self.profileTable(r),
                .if(!captures.isEmpty, .h2("Captures")),
                .group(captures.enumerated().map { Self.capture($1, index: $0) }),
                .script(
                    .raw(
                        "window.reportOverviews=["
                            + captures.enumerated().map { OverviewData.script($1, id: "overview-\($0)") }
                            .joined(separator: ",\n") + "];")),
                .script(.raw(ReportStyle.overviewScript)),
                .script(.raw("window.loopbackCharts=" + LoopbackCharts.data(r) + ";")),
                .script(.raw(LoopbackCharts.script))
            )
        )
        return html.render()
    }

    private static func headline(_ v: LoopbackVerdict) -> String {
        switch v.status {
        case .ok:
            return "ok: the path works"
                + (v.workingProfiles.isEmpty ? "" : " for " + v.workingProfiles.joined(separator: ", "))
        case .usable: return "usable: bytes get through, but see the advice"
        case .fail: return "fail: " + (LoopbackAdvice.lines(v).first ?? "no byte test passed")
        }
    }

    /// The measurements as (name, value) rows.
    static func facts(_ m: LoopbackMeasurements) -> [(String, String)] {
        func n(_ x: Double, _ digits: Int = 1) -> String { Formatting.number(x, digits) }
        func signed(_ x: Double, _ digits: Int = 1) -> String { (x >= 0 ? "+" : "") + n(x, digits) }
        let noise = m.noiseFloorDBFS <= -199 ? "digital silence" : "\(n(m.noiseFloorDBFS)) dBFS"
        guard m.signalReturned else {
            return [
                ("signal", "nothing came back (chirp clarity \(n(m.chirpClarity)), needs 8)"), ("noise floor", noise),
            ]
        }
        var rows: [(String, String)] = [
            ("noise floor", noise),
            ("hum", m.humFrequency.map { "\(Int($0)) Hz at \(n(m.humDBFS)) dBFS" } ?? "none"),
            ("latency", m.latencySeconds.map { "\(n($0 * 1000, 2)) ms round trip" } ?? "-"),
            (
                "clock drift",
                m.driftPPM.map {
                    signed($0) + " ppm" + (m.chirpDriftPPM.map { " (chirps: " + signed($0) + " ppm)" } ?? "")
                } ?? "-"
            ),
        ]
        if let e = m.resampler {
            rows.append(
                (
                    "resampler",
                    (e.detected ? "yes" : "none found") + " (top of band "
                        + (e.topCutDB.map { signed($0) + " dB" } ?? "-")
                        + ", delay fraction \(n(e.fractionalDelay, 2)) sample, chirp residual \(n(e.residualDB)) dB)"
                ))
        }
        rows.append(
            ("gain at 1 kHz", (m.gainDB.map { signed($0) + " dB" } ?? "-") + (m.inverted ? ", polarity inverted" : "")))
        let band = ResponseSummary(m.response)
        var response =
            "band " + (band.lowEdge.map(hz) ?? "-") + " to " + (band.highEdge.map(hz) ?? "-")
            + " (within 6 dB of 1 kHz)"
        if !band.notches.isEmpty { response += "; notch at " + band.notches.map(hz).joined(separator: ", ") }
        rows.append(("response", response))
        if let p = m.powerTone { rows.append(("power tone", "\(hz(p.frequency)): " + signed(p.relativeDB) + " dB")) }
        var clean = m.maxCleanOutputDBFS.map { "up to \(n($0)) dBFS out" } ?? "every step clipped"
        if let step = m.levels.prefix(while: { !$0.clipped }).last {
            clean += " (\(n(step.captureDBFS)) dBFS captured)"
        }
        rows.append(("clean output level", clean))
        rows.append(("clipping point", m.captureClipDBFS.map { "\(n($0)) dBFS captured" } ?? "not reached"))
        if let a = m.agc {
            rows.append(
                (
                    "AGC",
                    (a.detected ? "yes" : "none")
                        + ": \(n(a.playedStepDB)) dB step came back as \(n(a.capturedStepDB)) dB"
                        + (a.detected
                            ? ", overshoot \(n(a.overshootDB)) dB, settles in \(n(a.settleSeconds * 1000, 0)) ms" : "")
                ))
        } else {
            rows.append(("AGC", "not measured (the quiet step is too close to the noise)"))
        }
        return rows
    }

    private static func hz(_ f: Double) -> String {
        f >= 1000 ? Formatting.number(f / 1000, 2) + " kHz" : Formatting.number(f, 0) + " Hz"
    }

    private static func profileTable(_ r: LoopbackReport) -> Node<HTML.BodyContext> {
        let rows = LoopbackCharts.profiles(r)
        let others = r.bytes.filter { b in !rows.contains { $0.profile.name == b.modem } }
        func db(_ x: Double?) -> String { x.map { Formatting.number($0, 1) } ?? "-" }
        func counts(_ b: ByteTestResult?) -> [Node<HTML.TableRowContext>] {
            guard let b else { return [.td("-"), .td("-"), .td("-"), .td("-"), .td("-")] }
            return [
                .td(.text(Formatting.number(b.levelDBFS, 1))), .td(.text("\(b.sent)")), .td(.text("\(b.received)")),
                .td(.if(b.byteErrors > 0, .class("err")), .text("\(b.byteErrors)")), .td(.text("\(b.rejected)")),
            ]
        }
        return .table(
            .class("profiles"),
            .tr(
                .th("#"), .th(.class("text"), .text("profile")), .th("mark Hz"), .th("space Hz"), .th("mark dB"),
                .th("space dB"),
                .th("level dBFS"), .th("sent"), .th("received"), .th("byte errors"), .th("rejected"),
                .th(.class("text"), .text("byte test"))),
            .forEach(rows) { p in
                .tr(
                    .td(.text("\(p.number)")), .td(.class("text"), .text(p.profile.name)),
                    .td(.text(Formatting.number(p.profile.mark, 0))), .td(.text(Formatting.number(p.profile.space, 0))),
                    .td(.text(db(p.markDB))), .td(.text(db(p.spaceDB))), .group(counts(p.bytes)),
                    .td(.class("text \(p.cssClass)"), .text(p.outcome)))
            },
            .forEach(others) { b in
                .tr(
                    .td(""), .td(.class("text"), .text(b.modem)), .td("-"), .td("-"), .td("-"), .td("-"),
                    .group(counts(b)),
                    .td(.class(b.passed ? "text tone-pass" : "text tone-fail"), .text(b.passed ? "passed" : "failed")))
            }
        )
    }

    private static func capture(_ a: RecordingAnalysis, index: Int) -> Node<HTML.BodyContext> {
        let peak = Formatting.number(Decibels.amplitude(Double(a.peak)), 1)
        return .section(
            .class("recording"), .id("recording-\(index)"),
            .h3(.text(a.name)),
            .p(
                .class("facts"),
                .text(
                    "\(Formatting.number(a.duration, 2)) s; peak \(peak) dBFS, mean level "
                        + "\(Formatting.number(Decibels.power(a.meanPower), 1)) dBFS, "
                        + "\(Formatting.number(a.clippedFraction * 100, 3)) % of samples flat at full scale")),
            .div(.class("overview"), .id("overview-\(index)")),
            .p(
                .class("caption"),
                .text("Envelope of the capture (peak and rms). Drag to zoom, double-click to zoom out.")),
            .img(
                .class("picture"), .src(SpectrogramPicture.draw(a, measured: []).dataURI()),
                .alt("spectrogram of \(a.name)")),
            .p(
                .class("caption"),
                .text(
                    "Spectrogram, 0 to \(Int(Double(a.spectrogram.first?.count ?? 0) * a.binHz)) Hz, "
                        + "\(Formatting.number(a.duration, 1)) s across."))
        )
    }
}
