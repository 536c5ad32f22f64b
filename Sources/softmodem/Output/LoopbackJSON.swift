import ModemCalibration
import ModemDecoding

/// `softmodem loopback --json`: the report as one JSON object for scripts. Levels in dBFS,
/// gains in dB, times in seconds; what was not measured is null.
enum LoopbackJSON {
    static func render(_ r: LoopbackReport, playback: String, capture: String) -> String {
        let m = r.measurements
        let band = ResponseSummary(m.response)
        var o = JSONObject()
        o["playback"] = string(playback)
        o["capture"] = string(capture)
        o["sample_rate"] = number(m.sampleRate)
        o["signal_returned"] = m.signalReturned ? "true" : "false"
        o["latency_seconds"] = number(m.latencySeconds)
        o["inverted"] = m.inverted ? "true" : "false"
        o["drift_ppm"] = number(m.driftPPM)
        o["chirp_drift_ppm"] = number(m.chirpDriftPPM)
        o["resampler"] =
            m.resampler.map { e in
                var r = JSONObject()
                r["detected"] = e.detected ? "true" : "false"
                r["fractional_delay"] = number(e.fractionalDelay)
                r["residual_db"] = number(e.residualDB)
                r["top_cut_db"] = number(e.topCutDB)
                return r.text
            } ?? "null"
        o["noise_floor_dbfs"] = number(m.noiseFloorDBFS)
        o["hum_hz"] = number(m.humFrequency)
        o["hum_dbfs"] = number(m.humDBFS)
        o["gain_db"] = number(m.gainDB)
        o["band_low_hz"] = number(band.lowEdge)
        o["band_high_hz"] = number(band.highEdge)
        o["notches_hz"] = "[" + band.notches.map { number($0) }.joined(separator: ",") + "]"
        o["response"] =
            "[" + m.response.map { "[\(number($0.frequency)),\(number($0.relativeDB))]" }.joined(separator: ",") + "]"
        o["power_tone"] = m.powerTone.map { "[\(number($0.frequency)),\(number($0.relativeDB))]" } ?? "null"
        o["max_clean_output_dbfs"] = number(m.maxCleanOutputDBFS)
        o["capture_clip_dbfs"] = number(m.captureClipDBFS)
        o["levels"] =
            "["
            + m.levels.map { s in
                var l = JSONObject()
                l["output_dbfs"] = number(s.outputDBFS)
                l["capture_dbfs"] = number(s.captureDBFS)
                l["capture_peak_dbfs"] = number(s.capturePeakDBFS)
                l["distortion_db"] = number(s.distortionDB)
                l["clipped"] = s.clipped ? "true" : "false"
                return l.text
            }.joined(separator: ",") + "]"
        o["agc"] =
            m.agc.map { a in
                var g = JSONObject()
                g["detected"] = a.detected ? "true" : "false"
                g["played_step_db"] = number(a.playedStepDB)
                g["captured_step_db"] = number(a.capturedStepDB)
                g["overshoot_db"] = number(a.overshootDB)
                g["settle_seconds"] = number(a.settleSeconds)
                return g.text
            } ?? "null"
        o["bytes"] =
            "["
            + r.bytes.map { b in
                var t = JSONObject()
                t["modem"] = string(b.modem)
                t["level_dbfs"] = number(b.levelDBFS)
                t["sent"] = "\(b.sent)"
                t["received"] = "\(b.received)"
                t["byte_errors"] = "\(b.byteErrors)"
                t["rejected"] = "\(b.rejected)"
                return t.text
            }.joined(separator: ",") + "]"
        o["verdict"] = string(r.verdict.status.rawValue)
        o["recommended_output_dbfs"] = number(r.verdict.recommendedOutputDBFS)
        o["working_profiles"] = "[" + r.verdict.workingProfiles.map(string).joined(separator: ",") + "]"
        o["advice"] = "[" + r.verdict.advice.map(string).joined(separator: ",") + "]"
        return o.text
    }

    /// Keys in insertion order, values already encoded.
    struct JSONObject {
        private var pairs: [(String, String)] = []
        subscript(key: String) -> String? {
            get { pairs.first { $0.0 == key }?.1 }
            set { if let newValue { pairs.append((key, newValue)) } }
        }
        var text: String { "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}" }
    }

    /// A finite number with up to 6 significant decimals; nil and non-finite values as null.
    static func number(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "null" }
        return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : cFormat("%.6g", x)
    }

    static func string(_ s: String) -> String { "\"" + MessagePrinter.escape(s) + "\"" }
}
