public import ModemDSP
public import ModemDecoding

/// How one modem's characters sit on the wire, for ``InspectObserver``: from the settings
/// (FSK), the frame's own measurements (HiJack), or the burst's detection (auto).
public protocol CharacterLayouts<Receiver> {
    associatedtype Receiver: ModemReceiver
    /// The layout of `event`; may hand the analyzer what the receiver found on the way.
    mutating func layout(of event: ModemEvent, receiver: inout Receiver, analyzer: RecordingAnalyzer) -> CharacterLayout
}

/// `inspect`: hands one channel's samples and events to a ``RecordingAnalyzer``, each event
/// with its character's layout.
public final class InspectObserver<Layouts: CharacterLayouts>: DecodeObserver {
    /// The receiver whose events are laid out.
    public typealias Receiver = Layouts.Receiver
    /// The analysis every sample and event goes to.
    public let analyzer: RecordingAnalyzer
    private var layouts: Layouts

    /// Feeds `analyzer` with every sample and event of the channel it observes.
    public init(_ analyzer: RecordingAnalyzer, _ layouts: Layouts) {
        self.analyzer = analyzer
        self.layouts = layouts
    }

    /// Every sample, in bursts and between them: the report draws the whole recording.
    public func wantsSamples(inBurst: Bool) -> Bool { true }

    /// Hands the samples to the analyzer, then each event with its layout.
    public func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout Receiver, events: ArraySlice<ModemEvent>)
    {
        analyzer.process(samples)
        for e in events { analyzer.add(e, layout: layouts.layout(of: e, receiver: &receiver, analyzer: analyzer)) }
    }

    /// Nothing: the report says what it found, not the session.
    public func burstEnded() -> BurstObservation? { nil }
}

/// Every character as the profile and format say.
public struct FSKLayouts: CharacterLayouts {
    let fixed: CharacterLayout

    /// Every character as `settings`' profile and format say.
    public init(_ settings: FSKSettings) {
        fixed = CharacterLayout(
            line: .fsk(mark: settings.profile.mark, space: settings.profile.space), baud: settings.profile.baud,
            format: settings.format, label: "\(settings.profile.name), \(settings.format)")
    }

    /// The profile's fixed layout, whatever the event.
    public func layout(of event: ModemEvent, receiver: inout FSKDemodulator, analyzer: RecordingAnalyzer)
        -> CharacterLayout
    {
        fixed
    }
}

/// HiJack's fixed frame (start, 8 data bits, even parity; lab11: 8 bits of its packet's bit
/// stream) at the rate and polarity the decoder measured for it.
public struct HiJackLayouts: CharacterLayouts {
    let settings: HiJackSettings
    let format = try! FrameFormat(dataBits: 8, parity: .even)

    /// Characters of `settings`' generation, at the rate it receives unless a frame measured its own.
    public init(settings: HiJackSettings) { self.settings = settings }

    /// Manchester at the frame's measured rate and polarity (the settings' rate when unmeasured).
    public func layout(of event: ModemEvent, receiver: inout HiJackDecoder, analyzer: RecordingAnalyzer)
        -> CharacterLayout
    {
        let m = event.hijack
        return CharacterLayout(
            line: .manchester(inverted: m?.inverted ?? false), baud: m?.baud ?? settings.receiveBaud,
            format: format, label: "\(settings.generation.name)\(m?.inverted == true ? ", inverted" : "")",
            framed: !settings.generation.isBitStream)
    }
}

/// The detection of the burst an event belongs to (the last one starting at or before it);
/// each new detection is handed to the analyzer for the report's list, in the words
/// `describe` gives it.
public struct AutoLayouts: CharacterLayouts {
    private var reported = 0
    private let describe: (Detection) -> String

    /// Detections named for the report's list by `describe` (the command line's words).
    public init(describe: @escaping (Detection) -> String) { self.describe = describe }

    /// The layout of the detection `event` belongs to; FSK at NaN Hz before any detection.
    public mutating func layout(of event: ModemEvent, receiver: inout AutoReceiver, analyzer: RecordingAnalyzer)
        -> CharacterLayout
    {
        let detections = receiver.detections
        while reported < detections.count {
            analyzer.detected(describe(detections[reported]))
            reported += 1
        }
        guard let d = detections.last(where: { $0.startSample <= event.startSample }) ?? detections.last else {
            return CharacterLayout(line: .fsk(mark: .nan, space: .nan), baud: 300, format: .eightN1, label: "auto")
        }
        if let generation = d.hiJackGeneration, let inverted = d.hiJackInverted {
            return CharacterLayout(
                line: .manchester(inverted: inverted), baud: d.signature.baud, format: d.format,
                label: "\(generation.name)\(inverted ? ", inverted" : "")", framed: !generation.isBitStream)
        }
        let p = d.profile
        return CharacterLayout(
            line: .fsk(mark: p.mark, space: p.space), baud: p.baud, format: d.format,
            label: "\(d.signature.profile?.name ?? "FSK \(Int(p.baud.rounded())) baud"), \(d.format)")
    }
}
