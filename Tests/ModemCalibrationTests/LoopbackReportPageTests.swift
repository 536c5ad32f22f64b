import Foundation
import ModemCalibration
import ModemReport
import ModemReportPage
import ModemTestSupport
import Testing

/// `loopback --report`'s page, built from loopback runs through the channel model and
/// rendered in headless Chromium: no script errors, the verdict and advice in the DOM, the
/// response and ladder charts and the capture overviews drawn.
@Suite("loopback report page", .serialized)
struct LoopbackReportPageTests {
    static let canRender =
        HeadlessBrowser.chromium != nil && FileManager.default.fileExists(atPath: ChartLibrary.defaultPath)

    /// Runs the test through `channel`, keeping an overview of each phase's capture as the
    /// command does, and writes the page from the document's JSON form, as softmodem-report
    /// receives it.
    static func page(_ channel: LoopbackChannel, hijack: Bool = false, in dir: URL) throws -> (LoopbackReport, URL) {
        var captures: [RecordingAnalysis] = []
        let report = LoopbackTest(sampleRate: channel.sampleRate, hijack: hijack).run { signal, phase in
            let captured = channel.path(signal, phase)
            captures.append(
                CaptureOverview.analyse(
                    name: "\(phase.rawValue) capture", samples: captured, sampleRate: channel.sampleRate))
            return captured
        }
        let document = try ReportDocumentJSON.roundTrip(.loopback(report, devices: "channel model", captures: captures))
        guard case .loopback(let decoded, _, _) = document else { throw ReportDocumentJSON.Mismatch() }
        #expect(decoded == report)
        let html = ReportPage.render(document, chartLibrary: try ChartLibrary.load())
        let url = dir.appendingPathComponent("loopback.html")
        try html.write(to: url, atomically: true, encoding: .utf8)
        return (report, url)
    }

    /// Renders the page and checks it whole; returns the DOM.
    static func expectRenders(_ url: URL, charts: Int, pictures: Int, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> HeadlessBrowser.Rendered
    {
        let page = try HeadlessBrowser.render(url)
        #expect(
            page.dom.contains("id=\"script-errors\"></pre>"),
            "script errors: \(page.dom.components(separatedBy: "script-errors").dropFirst().first?.prefix(300) ?? "")",
            sourceLocation: sourceLocation)
        #expect(page.attribute("data-charts") == "\(charts)", sourceLocation: sourceLocation)
        #expect(
            page.dom.components(separatedBy: "data-drawn=\"1\"").count - 1 == charts, "not every chart drawn",
            sourceLocation: sourceLocation)
        let canvases = (page.attribute("data-canvases") ?? "0/0").split(separator: "/").map { Int($0) ?? -1 }
        #expect(canvases.first ?? 0 >= charts, "canvases inked: \(canvases)", sourceLocation: sourceLocation)
        #expect(page.attribute("data-images") == "\(pictures)/\(pictures)", sourceLocation: sourceLocation)
        #expect(
            try HeadlessBrowser.distinctPixelBytes(page.screenshot, in: url.deletingLastPathComponent()) > 50,
            "blank screenshot",
            sourceLocation: sourceLocation)
        return page
    }

    @Test(.enabled(if: canRender, "needs chromium and libjs-dygraphs (make deps installs them)"))
    func lowPassPathRendersWithItsVerdictChartsAndCaptures() throws {
        let dir = try CLI.temporaryDirectory()
        let (report, url) = try Self.page(LoopbackChannel(lowPass: 4000), in: dir)
        #expect(report.verdict.status == .usable)
        // Response, ladder, and the overview of both captures (each with its spectrogram).
        let page = try Self.expectRenders(url, charts: 4, pictures: 2)
        #expect(page.dom.contains("data-verdict=\"usable\""))
        #expect(page.dom.contains("usable: bytes get through"))
        #expect(page.dom.contains("the path cuts above"))
        // Every tone of the profiles the response allows is on the chart; those beyond the
        // cut were not tested.
        #expect(
            page.dom.contains("dygraph-annotation") && page.dom.contains("tone-pass") && page.dom.contains("tone-none"))
        #expect(page.dom.contains("softmodem-1225") && page.dom.contains("not tested"))
        #expect(!page.dom.contains("src=\"http") && !page.dom.contains("href=\"http"))
    }

    @Test(.enabled(if: canRender, "needs chromium and libjs-dygraphs (make deps installs them)"))
    func silentPathRendersTheFailureWithoutCharts() throws {
        let dir = try CLI.temporaryDirectory()
        let (report, url) = try Self.page(LoopbackChannel(silent: true), in: dir)
        #expect(report.verdict.status == .fail)
        // Nothing came back: no response or ladder, no byte test; the measurement capture's overview only.
        let page = try Self.expectRenders(url, charts: 1, pictures: 1)
        #expect(page.dom.contains("data-verdict=\"fail\""))
        #expect(page.dom.contains("nothing came back"))
        #expect(!page.dom.contains("id=\"loopback-response\""))
    }

    @Test func theTableListsEveryMeasurement() throws {
        let dir = try CLI.temporaryDirectory()
        guard FileManager.default.fileExists(atPath: ChartLibrary.defaultPath) else { return }
        let (_, url) = try Self.page(LoopbackChannel(agc: true), hijack: true, in: dir)
        let html = try String(contentsOf: url, encoding: .utf8)
        for name in [
            "noise floor", "hum", "latency", "clock drift", "resampler", "clean output level", "clipping point", "AGC",
            "power tone",
        ] {
            #expect(html.contains("<th class=\"text\">\(name)</th>"), "\(name)")
        }
        #expect(html.contains("data-verdict=\"usable\"") && html.contains("automatic gain control"))
        #expect(html.contains(">hijack</td>"))
    }
}
