public import ModemReport
import Plot

/// The HTML report of `softmodem inspect`: one self-contained page (every script, style
/// and picture inline) for any number of recordings.
public enum InspectReport {
    /// Renders the page. `chartLibrary` is the charting library's script and style
    /// (``ChartLibrary/load(path:)``).
    public static func render(_ analyses: [RecordingAnalysis], chartLibrary: (script: String, style: String)) -> String
    {
        let names = analyses.map(\.name).joined(separator: ", ")
        var overviews: [String] = []
        var sections: [Node<HTML.BodyContext>] = []
        for (i, a) in analyses.enumerated() {
            let hints = Verdict.hints(for: a)
            overviews.append(OverviewData.script(a, id: "overview-\(i)"))
            sections.append(RecordingSection.node(a, hints: hints, index: i))
        }
        let html = HTML(
            .head(
                .meta(.charset(.utf8)),
                .title("softmodem inspect: \(names)"),
                .style(chartLibrary.style),
                .style(ReportStyle.css),
                .script(.raw(ReportStyle.errorCollector)),
                .script(.raw(chartLibrary.script))
            ),
            .body(
                .h1("softmodem inspect"),
                .pre(.id("script-errors")),
                .group(sections),
                .script(.raw("window.reportOverviews=[" + overviews.joined(separator: ",\n") + "];")),
                .script(.raw(ReportStyle.overviewScript))
            )
        )
        return html.render()
    }
}
