public import ModemDSP

/// The whole loopback self-test: play the measurement timeline and analyse it, then play a
/// byte burst per usable modem at the recommended level and decode them.
///
/// The caller supplies the path: live, a function that plays samples and returns what was
/// captured from the moment playback started; offline, a channel model. Both run this code.
public struct LoopbackTest: Sendable {
    /// What the path is asked to play.
    public enum Phase: String, Sendable {
        case measurement
        case bytes
    }

    /// Sample rate of the played and captured audio in Hz.
    public let sampleRate: Double
    /// The HiJack protocol whose byte test runs too, or nil for none.
    public let hijackGeneration: HiJackGeneration?
    /// The measurement timeline, with the power tone of ``hijackGeneration`` (or the default one).
    public let plan: LoopbackPlan

    /// Run HiJack's byte test too.
    public var hijack: Bool { hijackGeneration != nil }

    /// The test at `sampleRate`; `hijack` adds Gen 1's byte test.
    public init(sampleRate: Double, hijack: Bool = false) {
        self.init(sampleRate: sampleRate, hijackGeneration: hijack ? .gen1 : nil)
    }

    /// The test at `sampleRate` with the byte test of `hijackGeneration` (nil: none). The plan
    /// measures that generation's power tone (Gen 1's and infinity's near 21 kHz, lab11's at 10 kHz).
    public init(sampleRate: Double, hijackGeneration: HiJackGeneration?) {
        self.sampleRate = sampleRate
        self.hijackGeneration = hijackGeneration
        let power =
            hijackGeneration.map { $0.powerTone(sampleRate: sampleRate).frequency }
            ?? HiJack.defaultPowerTone(sampleRate: sampleRate)
        plan = LoopbackPlan(sampleRate: sampleRate, powerToneFrequency: power)
    }

    /// Seconds of audio the test plays for these modems (the byte phase depends on the
    /// measurements; this assumes every built-in profile).
    public var estimatedSeconds: Double {
        let modems =
            ModemProfile.builtIn.map { Modem.fsk(FSKSettings(profile: $0)) } + (hijackModem.map { [$0] } ?? [])
        let bytes = (try? ByteTestPlan(sampleRate: sampleRate, modems: modems, levelDBFS: -1))?.signal.count ?? 0
        return Double(plan.signal.count + bytes) / sampleRate
    }

    /// The modems whose tones the measured response passes (and HiJack when asked), in
    /// built-in order.
    public func byteModems(for m: LoopbackMeasurements) -> [Modem] {
        guard m.signalReturned else { return [] }
        var modems: [Modem] = ModemProfile.builtIn.filter { profile in
            (try? profile.validate(sampleRate: sampleRate)) != nil && ResponseSummary.allows(profile, m.response)
        }.map { .fsk(FSKSettings(profile: $0)) }
        if let hijackModem { modems.append(hijackModem) }
        return modems
    }

    /// HiJack as the host sends it, received at the same rate (the loopback hears the host).
    var hijackModem: Modem? {
        hijackGeneration.map { g in
            .hijack(HiJackSettings(generation: g, receiveBaud: g.hostBaud, sendBaud: g.hostBaud))
        }
    }

    /// Runs both phases through `path` and concludes.
    public func run<E: Error>(_ path: (_ signal: [Float], _ phase: Phase) throws(E) -> [Float]) throws(E)
        -> LoopbackReport
    {
        let measurements = PathAnalyzer(plan: plan).analyse(try path(plan.signal, .measurement))
        var results: [ByteTestResult] = []
        let modems = byteModems(for: measurements)
        // Nothing clean on the ladder: still try, below its quietest rung.
        let level = LoopbackVerdict.recommendedLevel(measurements) ?? LoopbackPlan.ladder[0] - 6
        if !modems.isEmpty, let bytePlan = try? ByteTestPlan(sampleRate: sampleRate, modems: modems, levelDBFS: level) {
            results = ByteTestAnalyzer(plan: bytePlan).analyse(try path(bytePlan.signal, .bytes))
        }
        return LoopbackReport(
            measurements: measurements, bytes: results,
            verdict: LoopbackVerdict(measurements, bytes: results, hijackAsked: hijack))
    }
}

/// Everything the loopback test found.
public struct LoopbackReport: Sendable, Equatable, Codable {
    /// What the measurement timeline found.
    public var measurements: LoopbackMeasurements
    /// One result per byte-tested modem; empty when nothing came back or no modem fits.
    public var bytes: [ByteTestResult]
    /// The conclusion drawn from the measurements and the byte tests.
    public var verdict: LoopbackVerdict
}
