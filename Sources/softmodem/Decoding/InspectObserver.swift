import ModemDSP
import ModemReport

/// `inspect`: hands one channel's samples and events to a ``RecordingAnalyzer``, with how
/// each character sits on the wire (from the modem's settings, the HiJack frame's own
/// measurements, or what `--profile auto` detected for the burst).
final class InspectObserver<Receiver: ModemReceiver>: DecodeObserver {
    let analyzer: RecordingAnalyzer
    private let layout: (inout Receiver, ModemEvent) -> CharacterLayout
    private var lastDetection = 0

    init(_ analyzer: RecordingAnalyzer, layout: @escaping (inout Receiver, ModemEvent) -> CharacterLayout) {
        self.analyzer = analyzer
        self.layout = layout
    }

    func wantsSamples(inBurst: Bool) -> Bool { true }

    func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout Receiver, events: ArraySlice<ModemEvent>) {
        analyzer.process(samples)
        for e in events { analyzer.add(e, layout: layout(&receiver, e)) }
    }

    func burstEnded() -> String { "" }
}

/// How each modem's characters are laid out, for ``InspectObserver``.
enum InspectLayouts {
    static func fsk(_ settings: FSKSettings) -> (inout FSKDemodulator, ModemEvent) -> CharacterLayout {
        let layout = CharacterLayout(line: .fsk(mark: settings.profile.mark, space: settings.profile.space),
                                     baud: settings.profile.baud, format: settings.format,
                                     label: "\(settings.profile.name), \(settings.format)")
        return { _, _ in layout }
    }

    static func hijack(_ settings: HiJackSettings) -> (inout HiJackDecoder, ModemEvent) -> CharacterLayout {
        let format = try! FrameFormat(dataBits: 8, parity: .even)
        return { _, e in
            let m = e.hijack
            return CharacterLayout(line: .manchester(inverted: m?.inverted ?? false), baud: m?.baud ?? settings.receiveBaud,
                                   format: format, label: "hijack\(m?.inverted == true ? ", inverted" : "")")
        }
    }

    /// The detection of the burst an event belongs to: the last one starting at or before it.
    /// Each new detection is also handed to the analyzer for the report's list.
    static func auto(_ analyzer: RecordingAnalyzer) -> (inout AutoReceiver, ModemEvent) -> CharacterLayout {
        var reported = 0
        return { receiver, e in
            let detections = receiver.detections
            while reported < detections.count {
                analyzer.detected(detections[reported].description)
                reported += 1
            }
            let d = detections.last { $0.startSample <= e.startSample } ?? detections.last
            guard let d else {
                return CharacterLayout(line: .fsk(mark: .nan, space: .nan), baud: 300, format: .eightN1, label: "auto")
            }
            let p = d.profile
            return CharacterLayout(line: .fsk(mark: p.mark, space: p.space), baud: p.baud, format: d.format,
                                   label: "\(d.signature.profile?.name ?? "FSK \(Int(p.baud.rounded())) baud"), \(d.format)")
        }
    }
}
