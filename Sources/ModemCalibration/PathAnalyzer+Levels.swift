import ModemDSP

extension PathAnalyzer {
    /// The level ladder: fundamental, harmonics and peak of each rung; where it clipped.
    func measureLevels(_ x: UnsafeBufferPointer<Float>, _ map: TimelineMap, into m: inout LoopbackMeasurements) {
        let fs = plan.sampleRate
        let f = LoopbackPlan.referenceFrequency
        var steps: [LevelStep] = []
        for rung in plan.levels {
            let (start, count) = map.map(rung.segment, trim: Int(0.025 * fs))
            let n = ToneProbe.wholeCycles(count, frequency: f, sampleRate: fs)
            let a = ToneProbe(frequency: f, sampleRate: fs).amplitude(x, start: start, count: n)
            var harmonics = 0.0
            var k = 2.0
            while k <= 5, k * f < 0.48 * fs {
                let h = ToneProbe(frequency: k * f, sampleRate: fs).amplitude(x, start: start, count: n)
                harmonics += h * h
                k += 1
            }
            let stats = SampleStatistics(x, start: start, count: n)
            var step = LevelStep(
                outputDBFS: rung.dBFS, captureDBFS: Decibels.clamped(Decibels.amplitude(a)),
                capturePeakDBFS: Decibels.clamped(Decibels.amplitude(stats.peak)),
                distortionDB: Decibels.clamped(Decibels.power(harmonics / max(a * a, 1e-30))))
            step.clipped = stats.peak >= 0.97 || step.distortionDB > -30
            steps.append(step)
        }
        // Compression against the quiet rungs' gain; an AGC compresses by design, so the
        // caller clears these flags when it finds one.
        let quietGains = steps.prefix(3).map { $0.captureDBFS - $0.outputDBFS }.sorted()
        if quietGains.count == 3 {
            let reference = quietGains[1]
            for i in steps.indices where steps[i].captureDBFS - steps[i].outputDBFS < reference - 1.5 {
                steps[i].compressed = true
            }
        }
        m.levels = steps
    }

    /// The AGC check: the level of the stepped tone in 10 ms blocks.
    func measureAGC(_ x: UnsafeBufferPointer<Float>, _ map: TimelineMap, into m: inout LoopbackMeasurements) {
        let fs = plan.sampleRate
        let f = LoopbackPlan.referenceFrequency
        let probe = ToneProbe(frequency: f, sampleRate: fs)
        let block = ToneProbe.wholeCycles(Int(0.01 * fs), frequency: f, sampleRate: fs)
        func levels(_ segment: LoopbackPlan.Segment) -> [Double] {
            let (start, count) = map.map(segment, trim: 0)
            return stride(from: start, to: start + count - block + 1, by: block).map {
                Decibels.clamped(Decibels.amplitude(probe.amplitude(x, start: $0, count: block)))
            }
        }
        let quiet = levels(plan.agcQuiet)
        let loud = levels(plan.agcLoud)
        guard quiet.count > 40, loud.count > 40 else { return }
        let settledQuiet = Self.mean(quiet.suffix(33).dropLast(3))
        let settledLoud = Self.mean(loud.suffix(33).dropLast(3))
        // The quiet tone must stand 20 dB clear of what white noise at the measured floor
        // reads as in one block (amplitude^2 = 4 sigma^2 / n), or its levels mean nothing.
        let blockNoise = m.noiseFloorDBFS - 3 + Decibels.power(4 / Double(block))
        guard settledQuiet > blockNoise + 20 else { return }
        let played = LoopbackPlan.agcLevels.loud - LoopbackPlan.agcLevels.quiet
        // The first block after the step may hold the edge itself; the next three show an
        // overshoot.
        let overshoot = (loud.dropFirst().prefix(3).max() ?? settledLoud) - settledLoud
        var settle = 0
        // The last blocks hold the segment's fade-out.
        for i in loud.indices.dropLast(3).reversed() where abs(loud[i] - settledLoud) > 1 {
            settle = i + 1
            break
        }
        let captured = settledLoud - settledQuiet
        let detected = abs(captured - played) > 3 || overshoot > 2
        m.agc = AGCResponse(
            playedStepDB: played, capturedStepDB: captured, overshootDB: overshoot,
            settleSeconds: Double(settle * block) / fs, detected: detected)
        if detected {
            for i in m.levels.indices where m.levels[i].compressed { m.levels[i].compressed = false }
        }
        for i in m.levels.indices {
            let s = m.levels[i]
            m.levels[i].clipped = s.capturePeakDBFS >= Decibels.amplitude(0.97) || s.distortionDB > -30 || s.compressed
        }
    }

    static func mean(_ values: some Collection<Double>) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }
}
