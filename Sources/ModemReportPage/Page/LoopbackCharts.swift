import ModemCalibration
import ModemDSP
import ModemReport

/// The loopback report's two charts: the frequency response with every built-in profile's
/// tones on it, and the level ladder. Their data go into the page as one script literal
/// (`window.loopbackCharts`); ``script`` draws them with the inlined charting library.
enum LoopbackCharts {
    /// One built-in profile as the report lists it: its number on the chart, its tones, the
    /// response there and its byte test.
    struct ProfileRow {
        var number: Int
        var profile: ModemProfile
        var markDB: Double?
        var spaceDB: Double?
        var bytes: ByteTestResult?

        /// "passed", "failed" or "not tested"; the CSS class of its tone marks.
        var outcome: String { bytes.map { $0.passed ? "passed" : "failed" } ?? "not tested" }
        var cssClass: String { bytes.map { $0.passed ? "tone-pass" : "tone-fail" } ?? "tone-none" }
    }

    /// The built-in profiles usable at the test's rate, numbered from 1.
    static func profiles(_ r: LoopbackReport) -> [ProfileRow] {
        let m = r.measurements
        return ModemProfile.builtIn.filter { (try? $0.validate(sampleRate: m.sampleRate)) != nil }.enumerated().map {
            i, p in
            ProfileRow(
                number: i + 1, profile: p, markDB: ResponseSummary.gain(at: p.mark, in: m.response),
                spaceDB: ResponseSummary.gain(at: p.space, in: m.response), bytes: r.bytes.first { $0.modem == p.name })
        }
    }

    /// The charts' data: `response` rows of (Hz, dB, tone dB) with the tones as a second,
    /// point-only series so each can carry an annotation; `ladder` rows of (output dBFS,
    /// captured, peak, harmonics); the first clipped rung and the recommended level.
    static func data(_ r: LoopbackReport) -> String {
        let m = r.measurements
        var rows: [(x: Double, response: Double?, tone: Double?)] = m.response.map {
            ($0.frequency, $0.relativeDB, nil)
        }
        // Profiles sharing a tone (softmodem-1225 and -2450 do) share one mark, labelled "1,2".
        var marks: [(x: Double, labels: [String], texts: [String], classes: [String])] = []
        for row in profiles(r) {
            for (name, f, db) in [("mark", row.profile.mark, row.markDB), ("space", row.profile.space, row.spaceDB)] {
                guard let db else { continue }
                let text =
                    "\(row.profile.name) \(name) \(Int(f.rounded())) Hz: \(Formatting.number(db, 1)) dB; byte test \(row.outcome)"
                if let i = marks.firstIndex(where: { $0.x == f }) {
                    marks[i].labels.append("\(row.number)")
                    marks[i].texts.append(text)
                    marks[i].classes.append(row.cssClass)
                } else {
                    rows.append((f, nil, db))
                    marks.append((f, ["\(row.number)"], [text], [row.cssClass]))
                }
            }
        }
        var annotations = marks.map { mark in
            // A failure shows over a pass, a pass over "not tested".
            let css = ["tone-fail", "tone-pass"].first { mark.classes.contains($0) } ?? "tone-none"
            let label = mark.labels.joined(separator: ",")
            return
                "{series:'tones',x:\(Formatting.js(mark.x, 1)),shortText:'\(label)',text:\(Formatting.jsString(mark.texts.joined(separator: "; "))),"
                + "cssClass:'\(css)',width:\(8 + 8 * label.count),height:16,tickHeight:6}"
        }
        if let p = m.powerTone {
            rows.append((p.frequency, nil, p.relativeDB))
            annotations.append(
                "{series:'tones',x:\(Formatting.js(p.frequency, 1)),shortText:'P',"
                    + "text:\(Formatting.jsString("HiJack power tone \(Int(p.frequency.rounded())) Hz: \(Formatting.number(p.relativeDB, 1)) dB")),"
                    + "cssClass:'tone-none',width:16,height:16,tickHeight:6}")
        }
        // Dygraphs wants rows in x order, one per x: tones falling on a swept frequency share its row.
        rows.sort { $0.x < $1.x }
        var merged: [(x: Double, response: Double?, tone: Double?)] = []
        for row in rows {
            if let last = merged.last, Formatting.js(last.x, 1) == Formatting.js(row.x, 1) {
                merged[merged.count - 1].response = last.response ?? row.response
                merged[merged.count - 1].tone = last.tone ?? row.tone
            } else {
                merged.append(row)
            }
        }
        func value(_ x: Double?) -> String { x.map { Formatting.js($0, 2) } ?? "null" }
        let response = merged.map { "[\(Formatting.js($0.x, 1)),\(value($0.response)),\(value($0.tone))]" }
        let ladder = m.levels.map { s in
            "[\(Formatting.js(s.outputDBFS, 1)),\(Formatting.js(s.captureDBFS, 2)),\(Formatting.js(s.capturePeakDBFS, 2)),\(Formatting.js(s.distortionDB, 2))]"
        }
        // Clipping shades from halfway between the last clean rung and the first clipped one.
        var clip = "null"
        if let i = m.levels.firstIndex(where: \.clipped) {
            clip = Formatting.js(
                i > 0 ? (m.levels[i - 1].outputDBFS + m.levels[i].outputDBFS) / 2 : m.levels[i].outputDBFS - 1, 1)
        }
        let level = r.verdict.recommendedOutputDBFS.map { Formatting.js($0, 1) } ?? "null"
        // At least -30 to +6 dB: a flat path would otherwise be scaled up to its rounding noise.
        let values = merged.flatMap { [$0.response, $0.tone].compactMap { $0 } }.filter(\.isFinite)
        let low = min(-30, (values.min() ?? 0) - 5)
        let high = max(6, (values.max() ?? 0) + 3)
        return "{response:[\(response.joined(separator: ","))],tones:[\(annotations.joined(separator: ","))],"
            + "responseRange:[\(Formatting.js(low, 0)),\(Formatting.js(high, 0))],ladder:[\(ladder.joined(separator: ","))],clipFrom:\(clip),level:\(level)}"
    }

    /// Dygraphs styles annotations inline in the series colour: only `!important` wins.
    static let css = """
        .chart{width:100%;height:300px}
        .dygraph-annotation.tone-pass{background:#bfe8c4!important;border-color:#2ca02c!important;color:#145a1e!important}
        .dygraph-annotation.tone-fail{background:#f7c4c4!important;border-color:#d62728!important;color:#7a1010!important}
        .dygraph-annotation.tone-none{background:#eee!important;border-color:#999!important;color:#555!important}
        td.tone-pass{background:#dff5e1}td.tone-fail{background:#fde0e0}td.tone-none{color:#777}
        .verdict-status{font-size:1.3em;font-weight:600}
        """

    /// Draws the charts that have data and adds them to the page's chart count (the
    /// overview script counts its own first).
    static let script = """
        (function(){
        var L=window.loopbackCharts,drawn=0;
        function vline(ctx,area,g,x,color){var p=g.toDomXCoord(x);ctx.strokeStyle=color;ctx.setLineDash([5,4]);
          ctx.beginPath();ctx.moveTo(p,area.y);ctx.lineTo(p,area.y+area.h);ctx.stroke();ctx.setLineDash([]);}
        function chart(id,data,options,after){
          var el=document.getElementById(id);if(!el||!data.length)return;
          var g=new Dygraph(el,data,options);drawn++;
          g.ready(function(){if(after)after(g);el.setAttribute('data-drawn','1');});}
        chart('loopback-response',L.response,{labels:['frequency (Hz)','response','tones'],
          axes:{x:{logscale:true}},xlabel:'frequency (Hz)',ylabel:'dB relative to 1 kHz',connectSeparatedPoints:true,valueRange:L.responseRange,
          colors:['#1f77b4','#d62728'],series:{tones:{strokeWidth:0,drawPoints:true,pointSize:4}},drawPoints:true,legend:'follow',
          underlayCallback:function(ctx,area,g){var y=g.toDomYCoord(-6);ctx.fillStyle='rgba(44,160,44,0.10)';
            ctx.fillRect(area.x,area.y,area.w,Math.max(0,y-area.y));}},
          function(g){g.setAnnotations(L.tones);});
        chart('loopback-ladder',L.ladder,{labels:['output (dBFS)','captured 1 kHz (dBFS)','captured peak (dBFS)','harmonics (dB)'],
          xlabel:'output level (dBFS)',ylabel:'dBFS / dB',drawPoints:true,pointSize:3,legend:'follow',
          colors:['#1f77b4','#ff7f0e','#9467bd'],
          underlayCallback:function(ctx,area,g){
            if(L.clipFrom!==null){var a=g.toDomXCoord(L.clipFrom);ctx.fillStyle='rgba(214,39,40,0.12)';
              ctx.fillRect(a,area.y,area.x+area.w-a,area.h);}
            if(L.level!==null)vline(ctx,area,g,L.level,'#2ca02c');}});
        var before=Number(document.body.getAttribute('data-charts')||0);
        document.body.setAttribute('data-charts',String(before+drawn));
        })();
        """
}
