/// The loopback test's conclusion: a status, the output level to use, and what was found
/// (``LoopbackFinding``, most important first), as values: the report and the command line
/// word them.
public struct LoopbackVerdict: Sendable, Equatable, Codable {
    /// How well the path works, in three grades.
    public enum Status: String, Sendable, Codable {
        /// Everything measured is fine and every byte test passed.
        case ok
        /// Bytes get through, but something should be changed.
        case usable
        /// Nothing came back, or no byte test passed.
        case fail
    }

    /// The overall grade.
    public var status: Status
    /// The output level to use (`--amplitude`), dBFS; nil when no level was clean.
    public var recommendedOutputDBFS: Double?
    /// Profiles whose byte test passed.
    public var workingProfiles: [String]
    /// What was found, most important first.
    public var findings: [LoopbackFinding]

    /// Headroom kept below the highest clean ladder level.
    public static let headroomDB = 3.0

    /// The output level for the byte test from the measurements: 3 dB under the loudest clean
    /// rung, at most -1 dBFS; nil when even the quietest rung clipped.
    public static func recommendedLevel(_ m: LoopbackMeasurements) -> Double? {
        guard m.signalReturned, let clean = m.maxCleanOutputDBFS else { return nil }
        return clean >= -1 ? -1 : clean - headroomDB
    }

    /// Concludes from the measurements and the byte-test results; `hijackAsked` adds the check
    /// of the HiJack power tone.
    public init(_ m: LoopbackMeasurements, bytes: [ByteTestResult], hijackAsked: Bool) {
        recommendedOutputDBFS = Self.recommendedLevel(m)
        workingProfiles = bytes.filter(\.passed).map(\.modem)
        guard m.signalReturned else {
            status = .fail
            findings = [.nothingReturned]
            return
        }
        var found: [LoopbackFinding] = []
        if let level = recommendedOutputDBFS { found.append(.playAt(dbfs: level)) }
        found += Self.levelFindings(m, level: recommendedOutputDBFS)
        found += Self.pathFindings(m, hijackAsked: hijackAsked)
        if m.inverted { found.append(.inverted) }
        for f in bytes where !f.passed {
            found.append(.byteErrors(modem: f.modem, errors: f.byteErrors, sent: f.sent, received: f.received))
        }
        if !workingProfiles.isEmpty { found.append(.working(workingProfiles)) }
        if bytes.isEmpty || workingProfiles.isEmpty {
            status = .fail
            if bytes.isEmpty { found.append(.noProfileTones) }
        } else {
            status = found.contains(where: \.isWarning) ? .usable : .ok
        }
        findings = found
    }

    /// Clipping, a weak or noisy arrival, at the recommended output `level`.
    static func levelFindings(_ m: LoopbackMeasurements, level: Double?) -> [LoopbackFinding] {
        var found: [LoopbackFinding] = []
        if let level {
            if let clip = m.captureClipDBFS, clip < -3 {
                found.append(.captureClips(atDBFS: clip, keepAtOrBelowDBFS: level))
            }
        } else {
            found.append(.clipsEvenAt(dbfs: LoopbackPlan.ladder[0]))
        }
        if let level, let gain = m.gainDB, level + gain < -45 {
            found.append(.arrivesWeak(atDBFS: level + gain, outputDBFS: level))
        }
        if let level, let gain = m.gainDB, level + gain - m.noiseFloorDBFS < 25 {
            found.append(.noisy(aboveFloorDB: level + gain - m.noiseFloorDBFS, floorDBFS: m.noiseFloorDBFS))
        }
        if let hum = m.humFrequency { found.append(.hum(frequency: hum, levelDBFS: m.humDBFS)) }
        return found
    }

    /// What the path does to the signal: a converter, clocks, AGC, the band, the power tone.
    static func pathFindings(_ m: LoopbackMeasurements, hijackAsked: Bool) -> [LoopbackFinding] {
        var found: [LoopbackFinding] = []
        if m.resampler?.detected == true { found.append(.resampler) }
        if let drift = m.driftPPM, abs(drift) > 20_000 {
            found.append(.rateOff(percent: drift / 10_000))
        } else if let drift = m.driftPPM, abs(drift) > 500 {
            found.append(.clockDrift(ppm: drift))
        }
        if let agc = m.agc, agc.detected {
            found.append(.agc(playedStepDB: agc.playedStepDB, capturedStepDB: agc.capturedStepDB))
        }
        let band = ResponseSummary(m.response)
        // A converter's cut near the top is reported above; lower cuts limit the profiles.
        if let high = band.highEdge, high < (m.resampler?.detected == true ? 0.3 : 0.4) * m.sampleRate {
            found.append(.lowPass(edgeHz: high))
        }
        if let low = band.lowEdge, low > 400 { found.append(.highPass(edgeHz: low)) }
        for notch in band.notches { found.append(.notch(hz: notch)) }
        if hijackAsked, let power = m.powerTone, power.relativeDB < -20 {
            found.append(.weakPowerTone(frequency: power.frequency, downDB: -power.relativeDB))
        }
        return found
    }
}
