import ModemDSP
import ModemReport
import Plot

/// One burst in detail: figures, the waveform with the bit clock and each character under
/// it, the mark/space picture (FSK) or eye (HiJack), and the characters as hex and text.
enum BurstSection {
    static func node(_ d: BurstDetail, analysis a: RecordingAnalysis) -> Node<HTML.BodyContext> {
        let row = a.rows.first { $0.index == d.index }
        let s = row?.summary
        let start = Double(d.start) / a.sampleRate
        let span = Double(max(1, d.end - d.start))
        let width = BurstPictures.waveformWidth(d)
        let balance = d.toneBalance
        var facts = "decoded as \(d.layout.label); starts at \(Formatting.number(start, 3)) s"
        if let s {
            facts += "; level \(Formatting.number(a.level(from: s.startSample, to: s.endSample), 1)) dBFS"
            if s.signalPower > 0 {
                facts +=
                    ", SNR \(Formatting.number(Decibels.power(s.signalPower / max(s.noisePower, 1e-20)), 1)) dB, Eb/N0 \(Formatting.number(s.ebN0, 1)) dB"
                facts +=
                    "; tones measured: mark \(Formatting.number(s.markFrequency, 1)) Hz, space \(Formatting.number(s.spaceFrequency, 1)) Hz"
            }
            facts +=
                s.baud.isFinite
                ? "; \(Formatting.number(s.baud, 1)) baud measured" : "; \(Formatting.number(d.layout.baud, 1)) baud"
            if let inverted = s.inverted { facts += inverted ? "; line inverted" : "; line not inverted" }
            facts += "; \(s.bytes) bytes, \(s.framingErrors) framing, \(s.parityErrors) parity errors"
        }
        if case .fsk = d.layout.line, balance.mark.isFinite, balance.space.isFinite, balance.space > 0 {
            facts +=
                "; mark/space amplitude \(Formatting.number(Decibels.amplitude(balance.mark / balance.space), 1)) dB"
        }
        let title =
            "Burst \(d.index + 1) at \(Formatting.number(start, 3)) s: "
            + Formatting.text(d.events.filter { $0.kind == .byte }.prefix(40).map(\.value), lines: false)
        let second: Node<HTML.BodyContext>
        switch d.layout.line {
        case .fsk:
            second = Figures.picture(
                BurstPictures.scatter(d).dataURI(), alt: "mark and space amplitudes",
                caption:
                    "Each bit's mark amplitude (across) against its space amplitude (up): blue should be mark, orange space; the diagonal is the decision boundary."
            )
        case .manchester:
            second = Figures.picture(
                BurstPictures.eye(d).dataURI(), alt: "eye of the bit cells",
                caption:
                    "Eye: every bit cell overlaid (grey lines at the cell edges); an open eye at mid-cell means clean transitions."
            )
        }
        return .details(
            .class("burst"), .open(d.index < 3),
            .summary(.text(title)),
            .p(.class("facts"), .text(facts)),
            .div(
                .class("scroll"),
                .img(
                    .src(BurstPictures.waveform(d, sampleRate: a.sampleRate).dataURI()), .alt("waveform"),
                    .attribute(named: "width", value: "\(width)")),
                .div(
                    .class("strip"), .attribute(named: "style", value: "width:\(width)px"),
                    .forEach(d.events) { e in
                        let left = Double(e.startSample - d.start) / span * 100
                        let w = Double(e.endSample - e.startSample) / span * 100
                        return .span(
                            .if(e.kind != .byte, .class("err")),
                            .attribute(
                                named: "style",
                                value: "left:\(Formatting.number(left, 3))%;width:\(Formatting.number(w, 3))%"),
                            .attribute(named: "title", value: describe(e, a)),
                            .text(Formatting.text([e.value], lines: false)),
                            .element(named: "b", text: Formatting.hex(e.value)))
                    })),
            .p(
                .class("caption"),
                .text(
                    "Waveform with the bit clock (grey: bit edges, dark: each character's start bit); characters with errors shaded red.\(d.omitted > 0 ? " The first \(d.events.count) characters are shown, \(d.omitted) more follow." : "")"
                )),
            .element(named: "div", nodes: [Node<HTML.BodyContext>.class("pair"), second, characters(d, a)])
        )
    }

    private static func describe(_ e: ModemEvent, _ a: RecordingAnalysis) -> String {
        let kind = e.kind == .byte ? "" : (e.kind == .framingError ? " framing error" : " parity error")
        return "\(Formatting.number(Double(e.startSample) / a.sampleRate, 4)) s 0x\(Formatting.hex(e.value))\(kind)"
    }

    private static func characters(_ d: BurstDetail, _ a: RecordingAnalysis) -> Node<HTML.BodyContext> {
        .table(
            .class("characters"),
            .tr(
                .th("time s"), .th("hex"), .th(.class("text"), .text("text")), .th(.class("text"), .text("status")),
                .th("Eb/N0 dB")),
            .forEach(d.events.prefix(64)) { e in
                .tr(
                    .if(e.kind != .byte, .class("err")),
                    .td(.text(Formatting.number(Double(e.startSample) / a.sampleRate, 4))),
                    .td(.text(Formatting.hex(e.value))),
                    .td(.class("text"), .text(Formatting.text([e.value], lines: false))),
                    .td(
                        .class("text"),
                        .text(e.kind == .byte ? "ok" : (e.kind == .framingError ? "framing error" : "parity error"))),
                    .td(.text(e.fsk.map { Formatting.number($0.ebN0, 1) } ?? "-")))
            }
        )
    }
}
