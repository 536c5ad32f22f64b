import ModemDSP
import ModemReport

/// The overview chart's data as a script literal: the envelope (time, peak, rms), every
/// burst's span, and labels with each burst's first characters.
enum OverviewData {
    /// Bursts with a label for the chart at most (all are shaded; the chart shows the
    /// labels of the bursts in view, a few at a time).
    static let maxLabels = 2_000

    static func script(_ a: RecordingAnalysis, id: String) -> String {
        let env = a.overview
        let buckets = a.overviewBuckets
        let step = Double(env.bucketLength) / a.sampleRate
        var points: [String] = []
        points.reserveCapacity(buckets.count)
        var times: [String] = []
        for (i, b) in buckets.enumerated() {
            let t = Formatting.js(Double(i) * step, 4)
            times.append(t)
            let peak = max(abs(b.low), abs(b.high))
            points.append("[\(t),\(Formatting.js(Double(peak), 4)),\(Formatting.js(Double(b.power).squareRoot(), 4))]")
        }
        if points.isEmpty {
            points.append("[0,0,0]")
            times.append("0")
        }
        let bursts = a.rows.map { r in
            "[\(Formatting.js(Double(r.summary.startSample) / a.sampleRate, 4)),\(Formatting.js(Double(r.summary.endSample) / a.sampleRate, 4))]"
        }
        let labels = a.rows.prefix(maxLabels).map { r -> String in
            // Annotations sit on a data point: the bucket where the burst starts.
            let i = min(times.count - 1, max(0, Int(Double(r.summary.startSample) / Double(env.bucketLength))))
            let text = Formatting.text(r.preview, lines: false)
            let short = text.isEmpty ? "#\(r.index + 1)" : String(text.prefix(10))
            return
                "{series:'peak',x:\(times[i]),shortText:\(Formatting.jsString(short)),text:\(Formatting.jsString("burst \(r.index + 1): " + text)),width:\(12 + 7 * short.count),height:16,tickHeight:8}"
        }
        return
            "{id:\(Formatting.jsString(id)),data:[\(points.joined(separator: ","))],bursts:[\(bursts.joined(separator: ","))],labels:[\(labels.joined(separator: ","))]}"
    }
}
