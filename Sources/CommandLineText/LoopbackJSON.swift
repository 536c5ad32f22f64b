public import ModemCalibration
import ModemDecoding
import ModemReport

/// `softmodem loopback --json`: the report as one JSON object for scripts. Levels in dBFS,
/// gains in dB, times in seconds; what was not measured is null.
public enum LoopbackJSON {
    /// The report as one line of JSON, naming the `playback` and `capture` devices.
    public static func render(_ r: LoopbackReport, playback: String, capture: String) -> String {
        let m = r.measurements
        let band = ResponseSummary(m.response)
        let o: JSONObject = [
            "playback": string(playback), "capture": string(capture), "sample_rate": number(m.sampleRate),
            "signal_returned": flag(m.signalReturned), "latency_seconds": number(m.latencySeconds),
            "inverted": flag(m.inverted), "drift_ppm": number(m.driftPPM), "chirp_drift_ppm": number(m.chirpDriftPPM),
            "resampler": object(m.resampler) { e in
                [
                    "detected": flag(e.detected), "fractional_delay": number(e.fractionalDelay),
                    "residual_db": number(e.residualDB), "top_cut_db": number(e.topCutDB),
                ]
            },
            "noise_floor_dbfs": number(m.noiseFloorDBFS), "hum_hz": number(m.humFrequency),
            "hum_dbfs": number(m.humDBFS), "gain_db": number(m.gainDB), "band_low_hz": number(band.lowEdge),
            "band_high_hz": number(band.highEdge),
            "notches_hz": "[" + band.notches.map(number).joined(separator: ",") + "]",
            "response": "[" + m.response.map(point).joined(separator: ",") + "]",
            "power_tone": m.powerTone.map(point) ?? "null",
            "max_clean_output_dbfs": number(m.maxCleanOutputDBFS), "capture_clip_dbfs": number(m.captureClipDBFS),
            "levels": array(m.levels) { s in
                [
                    "output_dbfs": number(s.outputDBFS), "capture_dbfs": number(s.captureDBFS),
                    "capture_peak_dbfs": number(s.capturePeakDBFS), "distortion_db": number(s.distortionDB),
                    "clipped": flag(s.clipped),
                ]
            },
            "agc": object(m.agc) { a in
                [
                    "detected": flag(a.detected), "played_step_db": number(a.playedStepDB),
                    "captured_step_db": number(a.capturedStepDB), "overshoot_db": number(a.overshootDB),
                    "settle_seconds": number(a.settleSeconds),
                ]
            },
            "bytes": array(r.bytes) { b in
                [
                    "modem": string(b.modem), "level_dbfs": number(b.levelDBFS), "sent": "\(b.sent)",
                    "received": "\(b.received)", "byte_errors": "\(b.byteErrors)", "rejected": "\(b.rejected)",
                ]
            },
            "verdict": string(r.verdict.status.rawValue),
            "recommended_output_dbfs": number(r.verdict.recommendedOutputDBFS),
            "working_profiles": "[" + r.verdict.workingProfiles.map(string).joined(separator: ",") + "]",
            "advice": "[" + LoopbackAdvice.lines(r.verdict).map(string).joined(separator: ",") + "]",
        ]
        return o.text
    }

    /// Keys in insertion order, values already encoded.
    struct JSONObject: ExpressibleByDictionaryLiteral {
        private let pairs: [(String, String)]
        init(dictionaryLiteral elements: (String, String)...) { pairs = elements }
        var text: String { "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}" }
    }

    /// One record as an object, or null when there is none.
    static func object<T>(_ record: T?, _ fields: (T) -> JSONObject) -> String {
        record.map { fields($0).text } ?? "null"
    }

    /// Records as an array of objects.
    static func array<T>(_ records: [T], _ fields: (T) -> JSONObject) -> String {
        "[" + records.map { fields($0).text }.joined(separator: ",") + "]"
    }

    /// A response point as [frequency, relative dB].
    static func point(_ p: ResponsePoint) -> String { "[\(number(p.frequency)),\(number(p.relativeDB))]" }

    static func flag(_ b: Bool) -> String { b ? "true" : "false" }

    /// A finite number with up to 6 significant decimals; nil and non-finite values as null.
    static func number(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "null" }
        return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : cFormat("%.6g", x)
    }

    static func string(_ s: String) -> String { JSONText.quoted(s) }
}
