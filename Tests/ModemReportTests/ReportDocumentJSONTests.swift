import BoardModels
import Foundation
import ModemDSP
import ModemTestSupport
import Testing

@testable import ModemReport
@testable import ModemReportPage

/// The JSON form softmodem hands softmodem-report: every value survives it, non-finite
/// numbers included, so the page drawn from it is the page drawn from the values.
@Suite struct ReportDocumentJSONTests {
    @Test func anInspectionSurvivesItsJSONFormAndDrawsTheSamePage() throws {
        let text = Array("json".utf8)
        let samples = try TestSignals.encode(text, amplitude: 0.5, silence: 4_410)
        let analysed = try analyseSoftModem1225(samples)
        let silent = CaptureOverview.analyse(
            name: "silence", samples: [Float](repeating: 0, count: 100), sampleRate: 8_000)
        let analyses = [analysed, silent]
        #expect(analyses[0].text == text)
        // A tone never measured is NaN: JSON has no such number, the document's names stand in.
        #expect(analyses[0].rows.contains { !$0.summary.baud.isFinite })

        let decoded = try ReportDocumentJSON.roundTrip(.inspection(analyses))
        guard case .inspection(let back) = decoded else { throw ReportDocumentJSON.Mismatch() }
        #expect(back.map(\.text) == analyses.map(\.text))
        #expect(back.map(\.nominalTones) == analyses.map(\.nominalTones))
        // NaN is never equal to itself: compare what the values print.
        #expect("\(back[0].details.map(\.events))" == "\(analyses[0].details.map(\.events))")
        #expect("\(back.map(\.rows))" == "\(analyses.map(\.rows))")
        let chart = (script: "/* chart */", style: "/* style */")
        #expect(ReportPage.render(decoded, chartLibrary: chart) == InspectReport.render(analyses, chartLibrary: chart))
    }

    @Test func aDocumentThatIsNotOneIsRefused() {
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(ReportDocument.self, from: Data("{\"inspection\":{\"_0\":[{}]}}".utf8))
        }
    }
}
