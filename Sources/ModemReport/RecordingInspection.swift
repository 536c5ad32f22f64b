public import ModemAudioIO
public import ModemDSP
public import ModemDecoding

/// Why a recording could not be inspected.
public enum InspectionError: Error, Sendable, Equatable {
    /// The session could not start: no such channel, or a modem that cannot run at the
    /// recording's rate.
    case session(DecodeSessionError)
    /// A read failed, or the file ended before its header said it would.
    case read(AudioIOError)
    /// The recording holds no frames.
    case problem(InputProblem)
}

/// One recording decoded as `decode` reads it, with a ``RecordingAnalyzer`` beside the
/// receiver of every candidate channel: what `inspect` draws its report from.
public enum RecordingInspection {
    /// What ``analyse(_:modem:channel:format:describe:)`` returns: the chosen channel's
    /// analysis, and that channel (0-based; nil when none carried a signal).
    public struct Result {
        /// What the analyzer of the chosen channel found.
        public var analysis: RecordingAnalysis
        /// The channel decoded (0-based), nil when none carried a signal.
        public var chosenChannel: Int?
    }

    /// Decodes all of `source` with `modem` and returns the analysis of the channel the
    /// session chose (`channel`, 0-based, when given).
    ///
    /// - Parameters:
    ///   - format: how the report names the recording's format.
    ///   - describe: how the report lists a detection (`--profile auto` only).
    /// - Throws: ``InspectionError``; a file that ends before its header's length is an
    ///   error after the whole of it was read, since its analysis would pass off the cut
    ///   end as the recording's.
    public static func analyse(
        _ source: SoundFileReader, modem: Modem, channel: Int?, format: String,
        describe: @escaping (Detection) -> String
    ) throws(InspectionError) -> Result {
        let rate = source.sampleRate
        let frames = source.frames >= 0 ? source.frames : nil
        func analyzer(_ tones: (mark: Double, space: Double)?, baud: Double, gapBits: Double, top: Double)
            -> RecordingAnalyzer
        {
            RecordingAnalyzer(
                name: source.name, sampleRate: rate, frames: frames, format: format, modem: modem.name,
                nominalTones: tones, baud: baud, gapBits: gapBits, maxFrequency: top)
        }
        switch modem {
        case .fsk(let s):
            let top = max(s.profile.mark, s.profile.space) * 1.4
            return try run(source, s, channel: channel) {
                let a = analyzer(
                    (s.profile.mark, s.profile.space), baud: s.nominalBaud, gapBits: s.burstGapBits, top: top)
                return (a, [ToneAdapterObserver(settings: s, sampleRate: rate), InspectObserver(a, FSKLayouts(s))])
            }
        case .hijack(let s):
            return try run(source, s, channel: channel) {
                let a = analyzer(nil, baud: s.nominalBaud, gapBits: s.burstGapBits, top: 8_000)
                return (a, [InspectObserver(a, HiJackLayouts(settings: s))])
            }
        case .auto(let s):
            return try run(source, s, channel: channel) {
                let a = analyzer(nil, baud: s.nominalBaud, gapBits: s.burstGapBits, top: 10_000)
                return (a, [InspectObserver(a, AutoLayouts(describe: describe))])
            }
        }
    }

    /// Decodes the whole source through a session whose every candidate channel has an
    /// analyzer (`observers` makes one channel's); returns the chosen channel's analysis.
    private static func run<Factory: ModemReceiverFactory>(
        _ source: SoundFileReader, _ factory: Factory, channel: Int?,
        observers: () -> (RecordingAnalyzer, [any DecodeObserver<Factory.Receiver>])
    ) throws(InspectionError) -> Result {
        var analyzers: [RecordingAnalyzer] = []
        var session: DecodeSession<Factory.Receiver>
        do {
            session = try DecodeSession(
                factory, sampleRate: source.sampleRate, channels: source.channels, channel: channel,
                name: source.name, reporter: SilentReporter()
            ) {
                let (a, list) = observers()
                analyzers.append(a)
                return list
            }
        } catch {
            throw .session(error)
        }
        var reader = source
        try SourceDecoding.run(
            &reader, through: &session, readError: { InspectionError.read($0) },
            handle: { _ throws(InspectionError) in })
        if session.stats.frames == 0 { throw .problem(.noAudio(input: source.name)) }
        if let truncation = source.truncation { throw .read(truncation) }
        // Lanes are the candidate channels in order: one lane when `channel` names it.
        let lane = channel == nil ? (session.chosenChannel ?? 0) : 0
        return Result(analysis: analyzers[lane].finish(), chosenChannel: session.chosenChannel)
    }
}
