public import ModemReport

/// The page of any report document.
public enum ReportPage {
    /// Renders `document` as one self-contained HTML page (``InspectReport`` or
    /// ``LoopbackReportPage``). `chartLibrary` as ``ChartLibrary/load(path:)`` gives it.
    public static func render(_ document: ReportDocument, chartLibrary: (script: String, style: String)) -> String {
        switch document {
        case .inspection(let analyses):
            return InspectReport.render(analyses, chartLibrary: chartLibrary)
        case .loopback(let report, let devices, let captures):
            return LoopbackReportPage.render(report, devices: devices, captures: captures, chartLibrary: chartLibrary)
        }
    }
}
