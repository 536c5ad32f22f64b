public import ModemCalibration

/// What one report page is drawn from: the values `inspect` or `loopback --report` measured.
///
/// It is Codable so that the page can be drawn by another program: the HTML library brings
/// Foundation, which the modem itself does not link. Numbers that are not finite (a tone never
/// measured is NaN) need an encoder that writes them, as ``ReportDocument/nonFiniteNames`` says.
public enum ReportDocument: Sendable, Codable {
    /// `inspect`: one analysis per recording, in the order they were named.
    case inspection([RecordingAnalysis])
    /// `loopback --report`: the test's result, the path tested (e.g. "default" or
    /// "hw:1,0 -> hw:2,0"), and each phase's capture (none when they were not kept).
    case loopback(LoopbackReport, devices: String, captures: [RecordingAnalysis])

    /// The strings that stand for positive infinity, negative infinity and NaN in the
    /// document's JSON form; both ends must agree on them.
    public static let nonFiniteNames = (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
}
