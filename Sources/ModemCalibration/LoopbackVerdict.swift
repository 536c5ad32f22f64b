/// The loopback test's conclusion: a status, the output level to use, and concrete advice.
public struct LoopbackVerdict: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Everything measured is fine and every byte test passed.
        case ok
        /// Bytes get through, but something should be changed.
        case usable
        /// Nothing came back, or no byte test passed.
        case fail
    }

    public var status: Status
    /// The output level to use (`--amplitude`), dBFS; nil when no level was clean.
    public var recommendedOutputDBFS: Double?
    /// Profiles whose byte test passed.
    public var workingProfiles: [String]
    /// One sentence per finding, most important first.
    public var advice: [String]

    /// Headroom kept below the highest clean ladder level.
    public static let headroomDB = 3.0

    /// The output level for the byte test from the measurements: 3 dB under the loudest clean
    /// rung, at most -1 dBFS; nil when even the quietest rung clipped.
    public static func recommendedLevel(_ m: LoopbackMeasurements) -> Double? {
        guard m.signalReturned, let clean = m.maxCleanOutputDBFS else { return nil }
        return clean >= -1 ? -1 : clean - headroomDB
    }

    public init(_ m: LoopbackMeasurements, bytes: [ByteTestResult], hijackAsked: Bool) {
        recommendedOutputDBFS = Self.recommendedLevel(m)
        workingProfiles = bytes.filter(\.passed).map(\.modem)
        var advice: [String] = []
        guard m.signalReturned else {
            status = .fail
            self.advice = [
                "nothing came back: connect the output to the microphone input, check the capture device, "
                    + "unmute it and raise its gain (alsamixer)"
            ]
            return
        }
        var warnings = 0
        func warn(_ text: String) {
            advice.append(text)
            warnings += 1
        }
        let level = recommendedOutputDBFS
        if let level { advice.append("play at --amplitude \(Self.number(level)) dBFS") }
        if level == nil {
            warn(
                "even \(Self.number(LoopbackPlan.ladder[0])) dBFS clips: turn the capture gain (and any mic boost) down"
            )
        } else if let clip = m.captureClipDBFS, clip < -3 {
            warn(
                "the capture clips at \(Self.number(clip)) dBFS: turn the capture gain or mic boost down, or keep the output at or below \(Self.number(level!)) dBFS"
            )
        }
        if let level, let gain = m.gainDB, level + gain < -45 {
            warn(
                "the signal arrives weak (\(Self.number(level + gain)) dBFS at \(Self.number(level)) dBFS out): raise the capture gain or the output volume"
            )
        }
        if let level, let gain = m.gainDB, level + gain - m.noiseFloorDBFS < 25 {
            warn(
                "noisy capture: the signal is only \(Self.number(level + gain - m.noiseFloorDBFS)) dB above the noise floor (\(Self.number(m.noiseFloorDBFS)) dBFS)"
            )
        }
        if let hum = m.humFrequency {
            warn(
                "mains hum at \(Self.number(hum)) Hz (\(Self.number(m.humDBFS)) dBFS): a ground loop; run the laptop on battery or use an isolator"
            )
        }
        if m.resampler?.detected == true {
            warn(
                "a sample-rate converter sits in the path (the response falls steeply near the top of the band): "
                    + "use hw:CARD,DEV, or --rate at the sound server's own rate (often 48000)")
        }
        if let drift = m.driftPPM, abs(drift) > 20_000 {
            warn(
                "the capture runs \(Self.number(drift / 10_000))% off the playback rate: the device is not at the rate asked for"
            )
        } else if let drift = m.driftPPM, abs(drift) > 500 {
            warn("playback and capture clocks differ by \(Self.number(drift)) ppm")
        }
        if let agc = m.agc, agc.detected {
            warn(
                "automatic gain control levels the input (\(Self.number(agc.playedStepDB)) dB step came back as \(Self.number(agc.capturedStepDB)) dB): "
                    + "turn off AGC and noise suppression (alsamixer 'Auto Gain Control', PulseAudio echo-cancel, phone audio effects)"
            )
        }
        let band = ResponseSummary(m.response)
        // A converter's cut near the top is reported above; lower cuts limit the profiles.
        if let high = band.highEdge, high < (m.resampler?.detected == true ? 0.3 : 0.4) * m.sampleRate {
            warn(
                "the path cuts above \(Self.hz(high)) (a low-pass or a voice channel): only profiles with tones below it work"
            )
        }
        if let low = band.lowEdge, low > 400 {
            warn("the path cuts below \(Self.hz(low))")
        }
        for notch in band.notches {
            warn("a notch near \(Self.hz(notch)): noise suppression or an equaliser; turn it off")
        }
        if hijackAsked, let power = m.powerTone, power.relativeDB < -20 {
            warn(
                "the HiJack power tone (\(Self.hz(power.frequency))) comes back \(Self.number(-power.relativeDB)) dB down: this path would not power a board"
            )
        }
        if m.inverted { advice.append("the path inverts polarity (harmless: the decoders follow it)") }
        let failed = bytes.filter { !$0.passed }
        for f in failed {
            warn("\(f.modem): \(f.byteErrors) byte error(s) in \(f.sent) bytes (\(f.received) received)")
        }
        if !workingProfiles.isEmpty { advice.append("working: " + workingProfiles.joined(separator: ", ")) }
        if bytes.isEmpty || workingProfiles.isEmpty {
            status = .fail
            if bytes.isEmpty { advice.append("no profile's tones pass this path") }
        } else {
            status = warnings == 0 ? .ok : .usable
        }
        self.advice = advice
    }

    /// A frequency for advice: Hz below 1 kHz, kHz to one decimal above.
    static func hz(_ f: Double) -> String { f < 1000 ? "\(Int(f.rounded())) Hz" : number(f / 1000) + " kHz" }

    /// A number for advice: whole numbers without a fraction, others to one decimal.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "\(x)" }
        let r = (x * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
