import ArgumentParser
import CommandLineText
import ModemALSA
import ModemCalibration
import ModemDSP
import ModemLive
import ModemReport

/// `softmodem loopback`: the cable and setup self-test.
struct LoopbackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loopback",
        abstract:
            "Self-test of a cable from the output to the input (or an echoing board): levels, latency, drift, response, AGC, bytes.",
        discussion: """
            Plays a test timeline while capturing (about 15 seconds), measures the noise \
            floor and hum, the round-trip latency, the clock drift and any sample-rate \
            converter, the frequency response from 200 Hz to 0.45 x the sample rate, the \
            level that reaches the capture without clipping, automatic gain control, and \
            sends a burst of bytes in every profile the response allows (and HiJack with \
            --hijack, or the HiJack protocol --hijack-profile names) at the recommended level. Ends with a verdict and advice on stderr; \
            --json prints the report on stdout, --report writes it as an offline HTML page \
            with charts. Exits 1 when the verdict is fail.
            """)

    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var output: VerbosityOptions

    @Option(name: .long, help: ArgumentHelp("Playback device, when it is not --device.", valueName: "name"))
    var playback: String?

    @Option(name: .long, help: ArgumentHelp("Capture device, when it is not --device.", valueName: "name"))
    var capture: String?

    @Flag(name: .long, help: "Byte-test HiJack too (data line at the stock host bit rate).")
    var hijack = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The HiJack protocol to byte-test: hijack (Gen 1, the default), hijack-infinity or hijack-lab11; implies --hijack.",
            valueName: "profile"))
    var hijackProfile: HiJackGeneration?

    @Flag(name: .long, help: "Print the report as JSON on stdout.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp("Also write the report as an offline HTML page; - writes it to stdout.", valueName: "file"))
    var report: String?

    func validate() throws {
        if report?.isEmpty == true { throw CLIError.usage("--report needs a file name or -") }
        if report == "-" && json { throw CLIError.usage("--json and --report - would both write to stdout") }
    }

    func run() throws {
        let page = try report.map { file throws(CLIError) in try LoopbackReportFile(path: file) }
        let playbackDevice = playback ?? audio.device
        let captureDevice = capture ?? audio.device
        let devices = playbackDevice == captureDevice ? playbackDevice : "\(playbackDevice) -> \(captureDevice)"
        StopSignal.install()
        var path = try openPath(playback: playbackDevice, capture: captureDevice)
        let test = LoopbackTest(sampleRate: path.sampleRate, hijackGeneration: hijackProfile ?? (hijack ? .gen1 : nil))
        let total = test.estimatedSeconds
        let showProgress = Diagnostics.stderrIsTerminal
        var done = 0.0
        path.start()
        defer { path.finish() }
        let report = try test.run { (signal, phase) throws(CLIError) -> [Float] in
            let before = done
            var shown = -1
            let captured: [Float]
            do throws(LoopbackPathError) {
                captured = try path.play(signal) { seconds in
                    let tenths = Int(seconds * 10)
                    guard showProgress, tenths != shown else { return }
                    shown = tenths
                    Diagnostics.rewriteLine(
                        "loopback: \(phase == .measurement ? "measuring" : "byte test") "
                            + "\(Diagnostics.number(before + seconds)) of about \(Diagnostics.number(total, 0)) s")
                }
            } catch {
                throw CLIError(error)
            }
            done = before + Double(signal.count) / path.sampleRate
            page?.keep(captured, phase: phase, sampleRate: path.sampleRate)
            return captured
        }
        if showProgress { Diagnostics.rewriteLine("") }
        Diagnostics.write(LoopbackTable.render(report, devices: devices, verbose: output.verbose))
        if json { print(LoopbackJSON.render(report, playback: playbackDevice, capture: captureDevice)) }
        try page?.write(report, devices: devices)
        if report.verdict.status == .fail {
            throw CLIError.runtime(
                "loopback: the test failed: " + (LoopbackAdvice.lines(report.verdict).first ?? "no byte test passed"))
        }
    }

    /// The two devices, opened as ``LiveAudioOptions`` asks, with the process's clock and
    /// stop signal; their `-v` lines.
    private func openPath(playback: String, capture: String) throws(CLIError) -> LoopbackPath {
        // The capture runs at the rate the playback gets (LoopbackPath sets it).
        let context = audio.context(
            notices: NoticePrinter(verbose: output.verbose), playback: playback, capture: capture)
        let path: LoopbackPath
        do {
            path = try LoopbackPath(context: context) { audio.periodFrames(at: $0, device: capture) }
        } catch {
            throw CLIError(error)
        }
        if output.verbose {
            Diagnostics.info(NoticePrinter.device(path.playback.info, .playback, periodTime: false))
            Diagnostics.info(NoticePrinter.device(path.capture.info, .capture, periodTime: false))
        }
        return path
    }
}
