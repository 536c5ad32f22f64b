import ModemCalibration
import ModemReport

/// `loopback --report`: checks the target and that the page can be drawn before the test
/// starts (so a bad path fails at once, not after 15 seconds of audio), keeps an overview of
/// each phase's capture as it arrives, and writes the page (``ReportRenderer``) through
/// ``InspectOutput``.
final class LoopbackReportFile {
    let path: String
    private var captures: [RecordingAnalysis] = []

    init(path: String) throws(CLIError) {
        try InspectOutput.check(path)
        try ReportRenderer.check()
        self.path = path
    }

    /// Analyses what one phase captured now: only the bounded overview is kept.
    func keep(_ captured: [Float], phase: LoopbackTest.Phase, sampleRate: Double) {
        let name = phase == .measurement ? "measurement capture" : "byte test capture"
        captures.removeAll { $0.name == name }
        captures.append(CaptureOverview.analyse(name: name, samples: captured, sampleRate: sampleRate))
    }

    func write(_ report: LoopbackReport, devices: String) throws(CLIError) {
        try InspectOutput.write(
            ReportRenderer.render(.loopback(report, devices: devices, captures: captures)), to: path)
    }
}
