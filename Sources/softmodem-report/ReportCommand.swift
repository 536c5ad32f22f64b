import ArgumentParser
import Foundation
import ModemReport
import ModemReportPage

/// `softmodem-report`: draws the HTML page of a report document. `softmodem inspect` and
/// `softmodem loopback --report` run it, so that softmodem itself links no Foundation (the
/// HTML library brings it, with 38 MB of ICU tables).
///
/// Standard input: one ``ReportDocument`` as JSON. Standard output: the page. A failure is
/// one line on standard error, worded for softmodem to pass on, and exit status 1.
@main
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "softmodem-report",
        abstract: "Draw the HTML page of a softmodem report (JSON on stdin) on stdout.",
        discussion: "softmodem inspect and softmodem loopback --report run this program: use those.")

    @Option(help: ArgumentHelp("The charting library's script (its style sheet beside it).", valueName: "file"))
    var chartLibrary = ChartLibrary.defaultPath

    @Flag(help: "Only check that the charting library can be read; read no document.")
    var check = false

    func run() throws {
        let chart: (script: String, style: String)
        do {
            chart = try ChartLibrary.load(path: chartLibrary)
        } catch {
            throw Self.fail(error.description)
        }
        if check { return }
        let decoder = JSONDecoder()
        let names = ReportDocument.nonFiniteNames
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: names.positiveInfinity, negativeInfinity: names.negativeInfinity, nan: names.nan)
        let document: ReportDocument
        do {
            document = try decoder.decode(ReportDocument.self, from: FileHandle.standardInput.readDataToEndOfFile())
        } catch {
            throw Self.fail("cannot read the report document on stdin: \(error)")
        }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(ReportPage.render(document, chartLibrary: chart).utf8))
        } catch {
            throw Self.fail("cannot write the page: \(error)")
        }
    }

    /// Writes `message` as the one line on stderr and ends with status 1.
    private static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode.failure
    }
}
