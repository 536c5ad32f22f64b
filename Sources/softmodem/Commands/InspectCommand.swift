import ArgumentParser
import ModemAudioIO
import ModemDSP
import ModemDecoding
import ModemReport

/// `softmodem inspect`: recordings in, one self-contained HTML report out.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Write an offline HTML report of recordings: overview, spectrogram, every burst, and a verdict.",
        discussion: """
            Decodes each file as decode does (same profile options) and writes one HTML page \
            that opens in any browser without network: the recording's envelope with the \
            bursts labelled, a spectrogram of the band, the first bursts in detail (waveform \
            with the bit clock, mark/space amplitudes or eye, the characters), a table of all \
            bursts, and hints on clipping, level, AGC, hum, tones and profile.
            """)

    @OptionGroup var modem: ProfileOptions

    @Argument(help: ArgumentHelp("Audio files (any format libsndfile reads); - reads stdin.", valueName: "file"))
    var files: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The report to write; - writes it to stdout.", valueName: "file"))
    var output: String

    @Option(
        name: .long,
        help: ArgumentHelp("Decode this channel (1 = left); default: the one carrying the signal.", valueName: "n"))
    var channel: Int?

    func validate() throws {
        if let channel, channel < 1 { throw CLIError.usage("--channel counts from 1, not \(channel)") }
        if files.filter({ $0 == "-" }).count > 1 { throw CLIError.usage("stdin (-) can be read only once") }
        if output.isEmpty { throw CLIError.usage("-o needs a file name or -") }
    }

    func run() throws {
        let modem = try self.modem.receiveModem(
            squelch: DemodulatorConfiguration.defaultSquelch, hiJackBaud: false, autoByDefault: true)
        try ReportRenderer.check()
        var analyses: [RecordingAnalysis] = []
        for path in files { analyses.append(try analyse(path, modem: modem)) }
        try InspectOutput.write(ReportRenderer.render(.inspection(analyses)), to: output)
    }

    private func analyse(_ path: String, modem: Modem) throws(CLIError) -> RecordingAnalysis {
        let source: SoundFileReader
        do {
            source = try SoundFileReader(path: path)
        } catch {
            throw CLIError(error)
        }
        let rate = source.sampleRate
        let frames = source.frames >= 0 ? source.frames : nil
        let format = "\(source.formatDescription), \(source.channels) channel\(source.channels == 1 ? "" : "s")"
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
            return try run(source, s) {
                let a = analyzer(
                    (s.profile.mark, s.profile.space), baud: s.nominalBaud, gapBits: s.burstGapBits, top: top)
                return (
                    a,
                    [
                        ToneAdapterObserver(settings: s, sampleRate: rate),
                        InspectObserver(a, FSKLayouts(s)),
                    ]
                )
            }
        case .hijack(let s):
            return try run(source, s) {
                let a = analyzer(nil, baud: s.nominalBaud, gapBits: s.burstGapBits, top: 8_000)
                return (a, [InspectObserver(a, HiJackLayouts(settings: s))])
            }
        case .auto(let s):
            return try run(source, s) {
                let a = analyzer(nil, baud: s.nominalBaud, gapBits: s.burstGapBits, top: 10_000)
                return (a, [InspectObserver(a, AutoLayouts { $0.text })])
            }
        }
    }

    /// Decodes the whole source through a session whose every candidate channel has an
    /// analyzer (`observers` makes one channel's); returns the chosen channel's analysis.
    private func run<Factory: ModemReceiverFactory>(
        _ source: SoundFileReader, _ factory: Factory,
        observers: () -> (RecordingAnalyzer, [any DecodeObserver<Factory.Receiver>])
    ) throws(CLIError) -> RecordingAnalysis {
        var analyzers: [RecordingAnalyzer] = []
        var session: DecodeSession<Factory.Receiver>
        do {
            session = try DecodeSession(
                factory, sampleRate: source.sampleRate, channels: source.channels,
                channel: channel.map { $0 - 1 }, name: source.name,
                reporter: BurstReporter(verbose: false, trace: false, modem: .auto(AutoSettings()))
            ) {
                let (a, list) = observers()
                analyzers.append(a)
                return list
            }
        } catch {
            throw CLIError(error)
        }
        var reader = source
        try SourceDecoding.run(&reader, through: &session) { _ throws(CLIError) in }
        if session.stats.frames == 0 { throw .runtime("\(source.name) holds no audio") }
        if let truncation = source.truncation { throw CLIError(truncation) }
        // Lanes are the candidate channels in order: one lane when --channel names it.
        let lane = channel == nil ? (session.chosenChannel ?? 0) : 0
        var analysis = analyzers[lane].finish()
        if source.channels > 1, let chosen = session.chosenChannel {
            analysis.format += "; channel \(chosen + 1) decoded"
        }
        return analysis
    }
}
