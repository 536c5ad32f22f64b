import ModemDSP
import ModemReport
import Plot

/// One recording's part of the report: facts, verdict, overview, spectrogram, decoded text,
/// the table of bursts and the first bursts in detail.
enum RecordingSection {
    static func node(_ a: RecordingAnalysis, hints: [Hint], index: Int) -> Node<HTML.BodyContext> {
        let measured = [
            Verdict.median(a.rows.map(\.summary.markFrequency).filter(\.isFinite)),
            Verdict.median(a.rows.map(\.summary.spaceFrequency).filter(\.isFinite)),
        ].compactMap { $0 }
        let spectrogram = SpectrogramPicture.draw(a, measured: measured)
        let topHz = Double(a.spectrogram.first?.count ?? 0) * a.binHz
        var facts = "\(a.format), \(Int(a.sampleRate)) Hz, \(Formatting.number(a.duration, 2)) s; profile \(a.modem); "
        facts +=
            "peak \(Formatting.number(Decibels.amplitude(Double(a.peak)), 1)) dBFS, mean level \(Formatting.number(Decibels.power(a.meanPower), 1)) dBFS; "
        facts +=
            "\(a.bytes) bytes, \(a.framingErrors) framing and \(a.parityErrors) parity errors in \(a.rows.count + a.rowsOmitted) bursts"
        var toneNote = "0 to \(Int(topHz)) Hz, \(Formatting.number(a.duration, 1)) s across."
        if a.nominalTones != nil { toneNote += " Dashed white: the profile's tones." }
        if !measured.isEmpty {
            toneNote +=
                " Red: the tones measured in the bursts (\(measured.map { "\(Int($0.rounded())) Hz" }.joined(separator: ", ")))."
        }
        return .section(
            .class("recording"), .id("recording-\(index)"),
            .h2(.text(a.name)),
            .p(.class("facts"), .text(facts)),
            .h3("Verdict"),
            .ul(
                .class("verdict"),
                .forEach(hints) { h in
                    .li(
                        .class("hint \(h.severity.rawValue)"), .attribute(named: "data-hint", value: h.id),
                        .text(h.text))
                }),
            .h3("Overview"),
            .p(
                .class("caption"),
                .text(
                    "Envelope of the whole recording (peak and rms); bursts shaded green and labelled with their text. Drag to zoom, double-click to zoom out."
                )),
            .div(.class("overview"), .id("overview-\(index)")),
            .h3("Spectrogram"),
            .img(.class("picture"), .src(spectrogram.dataURI()), .alt("spectrogram of \(a.name)")),
            .p(.class("caption"), .text(toneNote)),
            .if(
                !a.detections.isEmpty,
                .group(
                    .h3("Detected"),
                    .ul(.forEach(Array(Set(a.detections)).sorted()) { .li(.text($0)) }))),
            .h3("Decoded text"),
            .pre(.class("decoded"), .text(a.text.isEmpty ? "(nothing decoded)" : Formatting.text(a.text))),
            .if(a.bytes > a.text.count, .p(.class("caption"), .text("The first \(a.text.count) of \(a.bytes) bytes."))),
            .h3("Bursts"),
            table(a),
            .group(a.details.map { BurstSection.node($0, analysis: a) }),
            .if(
                a.rows.count + a.rowsOmitted > a.details.count,
                .p(
                    .class("caption"),
                    .text(
                        "The first \(a.details.count) bursts are shown in detail; the table lists \(a.rows.count) of \(a.rows.count + a.rowsOmitted)."
                    )))
        )
    }

    private static func table(_ a: RecordingAnalysis) -> Node<HTML.BodyContext> {
        .table(
            .class("bursts"),
            .tr(
                .th("#"), .th("start s"), .th("length ms"), .th("bytes"), .th("errors"), .th("level dBFS"),
                .th("SNR dB"),
                .th("Eb/N0 dB"), .th("mark Hz"), .th("space Hz"), .th("baud"), .th(.class("text"), .text("decoded as")),
                .th(.class("text"), .text("text"))),
            .forEach(a.rows) { r in
                let s = r.summary
                let fsk = s.signalPower > 0
                let errors = s.framingErrors + s.parityErrors
                return .tr(
                    .td(.text("\(r.index + 1)")),
                    .td(.text(Formatting.number(Double(s.startSample) / a.sampleRate, 3))),
                    .td(.text(Formatting.number(Double(s.endSample - s.startSample) / a.sampleRate * 1000, 1))),
                    .td(.text("\(s.bytes)")),
                    .td(.if(errors > 0, .class("err")), .text("\(errors)")),
                    .td(.text(Formatting.number(a.level(from: s.startSample, to: s.endSample), 1))),
                    .td(
                        .text(
                            fsk ? Formatting.number(Decibels.power(s.signalPower / max(s.noisePower, 1e-20)), 1) : "-")
                    ),
                    .td(.text(fsk ? Formatting.number(s.ebN0, 1) : "-")),
                    .td(.text(Formatting.number(s.markFrequency, 1))),
                    .td(.text(Formatting.number(s.spaceFrequency, 1))),
                    .td(.text(Formatting.number(s.baud, 1))),
                    .td(.class("text"), .text(r.layout)),
                    .td(.class("text"), .text(Formatting.text(r.preview, lines: false)))
                )
            }
        )
    }
}
