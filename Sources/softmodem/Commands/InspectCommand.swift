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

    /// One file's analysis, with the channel decoded named when it has several.
    private func analyse(_ path: String, modem: Modem) throws(CLIError) -> RecordingAnalysis {
        let source: SoundFileReader
        do { source = try SoundFileReader(path: path) } catch { throw CLIError(error) }
        let format = "\(source.formatDescription), \(source.channels) channel\(source.channels == 1 ? "" : "s")"
        let inspected: RecordingInspection.Result
        do {
            inspected = try RecordingInspection.analyse(
                source, modem: modem, channel: channel.map { $0 - 1 }, format: format, describe: \.text)
        } catch {
            throw CLIError(error)
        }
        var analysis = inspected.analysis
        if source.channels > 1, let chosen = inspected.chosenChannel {
            analysis.format += "; channel \(chosen + 1) decoded"
        }
        return analysis
    }
}
