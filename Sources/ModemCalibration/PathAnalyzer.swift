import ModemDSP
import RealModule

/// Analyses the capture of a ``LoopbackPlan``'s timeline into ``LoopbackMeasurements``.
///
/// The opening chirp gives the latency; the closing chirp the rate ratio between playback
/// and capture, so every later segment is found where it really landed. Each measurement
/// keeps clear of its segment's edges by more than the chirps' alignment error.
public struct PathAnalyzer: Sendable {
    /// The timeline that was played.
    public let plan: LoopbackPlan
    /// Opening chirps less clear than this are taken as "nothing came back".
    static let minimumClarity = 8.0

    /// An analyser for captures of `plan`'s signal.
    public init(plan: LoopbackPlan) { self.plan = plan }

    /// Maps sample indices of the played timeline to the capture.
    struct TimelineMap {
        var origin: Double
        var planOrigin: Int
        var ratio: Double
        func map(_ planIndex: Int) -> Int { Int((origin + Double(planIndex - planOrigin) * ratio).rounded()) }
        func map(_ segment: LoopbackPlan.Segment, trim: Int) -> (start: Int, count: Int) {
            (map(segment.start + trim), Int((Double(max(0, segment.count - 2 * trim)) * ratio).rounded()))
        }
    }

    /// Everything the timeline measures, from `capture` (mono, started when playback began).
    public func analyse(_ capture: [Float]) -> LoopbackMeasurements {
        capture.withUnsafeBufferPointer { analyse($0) }
    }

    /// The same over a buffer. Non-finite samples read as silence; a capture too short for
    /// the opening chirp, or without it, gives a report with ``LoopbackMeasurements/signalReturned``
    /// false and only the noise floor.
    public func analyse(_ x: UnsafeBufferPointer<Float>) -> LoopbackMeasurements {
        let fs = plan.sampleRate
        var m = LoopbackMeasurements(sampleRate: fs)
        let locator = ChirpLocator(chirp: plan.chirp, sampleRate: plan.sampleRate)
        let first = plan.openingChirp.start
        guard let opening = locator.locate(in: x, lags: LoopbackPlan.chirpSearch(start: first, sampleRate: fs)) else {
            m.noiseFloorDBFS = SampleStatistics(x, start: 0, count: x.count).levelDBFS
            return m
        }
        m.chirpClarity = opening.clarity
        guard opening.clarity >= Self.minimumClarity else {
            m.noiseFloorDBFS = SampleStatistics(x, start: 0, count: x.count).levelDBFS
            return m
        }
        m.signalReturned = true
        // Earlier than queued is the uncertainty of "queued" (see LoopbackPlan.earlyArrival).
        m.latencySeconds = max(0, opening.position - Double(first)) / fs
        m.inverted = opening.inverted
        // The closing chirp, within 1 % of where a perfect clock puts it.
        let span = plan.closingChirp.start - first
        let expected = opening.position + Double(span)
        let slack = Int(Double(span) * 0.01) + 16
        var ratio = 1.0
        if let closing = locator.locate(in: x, lags: (Int(expected) - slack)..<(Int(expected) + slack)),
            closing.clarity >= Self.minimumClarity
        {
            ratio = (closing.position - opening.position) / Double(span)
            m.chirpDriftPPM = (ratio - 1) * 1e6
        }
        let map = TimelineMap(origin: opening.position, planOrigin: first, ratio: ratio)
        measureQuiet(x, map, into: &m)
        measureDrift(x, map, into: &m)
        measureResponse(x, map, into: &m)
        measureLevels(x, map, into: &m)
        measureAGC(x, map, into: &m)
        m.resampler = ResamplerProbe(chirp: plan.chirp).evidence(x, at: opening, response: m.response, sampleRate: fs)
        return m
    }

    /// Noise floor and mains hum in the quiet second (its first 0.15 s left to echoes).
    private func measureQuiet(_ x: UnsafeBufferPointer<Float>, _ map: TimelineMap, into m: inout LoopbackMeasurements) {
        let fs = plan.sampleRate
        let start = map.map(plan.quiet.start + Int(0.15 * fs))
        // 0.8 s holds whole cycles of 50 and 60 Hz and their harmonics.
        let count = Int(0.8 * fs)
        let quiet = SampleStatistics(x, start: start, count: count)
        m.noiseFloorDBFS = quiet.levelDBFS
        var best = (frequency: 0.0, power: 0.0)
        for mains in [50.0, 60.0] {
            var power = 0.0
            for k in 1...3 {
                let a = ToneProbe(frequency: mains * Double(k), sampleRate: fs).amplitude(x, start: start, count: count)
                power += a * a
            }
            if power > best.power { best = (mains, power) }
        }
        m.humDBFS = Decibels.clamped(Decibels.power(best.power))
        // Hum counts when it carries at least half the quiet part's power.
        if best.power / 2 > 0.5 * quiet.meanSquare, m.humDBFS > -90 {
            m.humFrequency = best.frequency
        }
    }

    /// Clock drift from the phase slope of the 1 kHz tone, and the gain at 1 kHz.
    private func measureDrift(_ x: UnsafeBufferPointer<Float>, _ map: TimelineMap, into m: inout LoopbackMeasurements) {
        let fs = plan.sampleRate
        let f = LoopbackPlan.referenceFrequency
        let probe = ToneProbe(frequency: f, sampleRate: fs)
        let (start, count) = map.map(plan.driftTone, trim: Int(0.1 * fs))
        let block = ToneProbe.wholeCycles(Int(0.01 * fs), frequency: f, sampleRate: fs)
        guard block > 0, count > 4 * block else { return }
        var times: [Double] = []
        var phases: [Double] = []
        var amplitude = 0.0
        var previous = 0.0
        var unwrap = 0.0
        var b = start
        while b + block <= start + count {
            let z = probe.measure(x, start: b, count: block)
            amplitude += (z.re * z.re + z.im * z.im).squareRoot()
            var p = Double.atan2(y: z.im, x: z.re)
            if !phases.isEmpty {
                while p + unwrap - previous > Double.pi { unwrap -= 2 * Double.pi }
                while p + unwrap - previous < -Double.pi { unwrap += 2 * Double.pi }
            }
            p += unwrap
            previous = p
            times.append(Double(b - start) + Double(block) / 2)
            phases.append(p)
            b += block
        }
        let slope = Self.slope(times, phases)  // radians per capture sample
        let offset = slope * fs / (2 * Double.pi)
        // A capture clock running fast sees the tone low.
        m.driftPPM = -offset / f * 1e6
        m.gainDB = Decibels.amplitude(amplitude / Double(phases.count) / Decibels.linear(LoopbackPlan.testLevel))
    }

    /// The sweep and the power tone, relative to the gain at 1 kHz.
    private func measureResponse(
        _ x: UnsafeBufferPointer<Float>, _ map: TimelineMap, into m: inout LoopbackMeasurements
    ) {
        let fs = plan.sampleRate
        let reference = m.gainDB ?? 0
        func gain(_ step: LoopbackPlan.ToneStep, trim: Double) -> ResponsePoint {
            let (start, count) = map.map(step.segment, trim: Int(trim * fs))
            let n = ToneProbe.wholeCycles(count, frequency: step.frequency, sampleRate: fs)
            let a = ToneProbe(frequency: step.frequency, sampleRate: fs).amplitude(
                x, start: start + (count - n) / 2, count: n)
            return ResponsePoint(
                frequency: step.frequency,
                relativeDB: Decibels.clamped(Decibels.amplitude(a / Decibels.linear(step.dBFS)) - reference))
        }
        m.response = plan.sweep.map { gain($0, trim: 0.015) }
        m.powerTone = gain(plan.powerTone, trim: 0.02)
    }

    /// Least-squares slope of y over x.
    static func slope(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        guard n >= 2 else { return 0 }
        let mx = x.reduce(0, +) / n
        let my = y.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        for i in x.indices {
            sxy += (x[i] - mx) * (y[i] - my)
            sxx += (x[i] - mx) * (x[i] - mx)
        }
        return sxx > 0 ? sxy / sxx : 0
    }
}
