import ModemDSP

/// Level statistics of a stretch of audio: peak and mean square.
struct SampleStatistics {
    var peak = 0.0
    var meanSquare = 0.0

    init(_ samples: UnsafeBufferPointer<Float>, start: Int, count: Int) {
        let lo = max(0, start)
        let hi = min(samples.count, start + count)
        guard hi > lo else { return }
        var sum = 0.0
        var p: Float = 0
        for i in lo..<hi where samples[i].isFinite {
            let x = samples[i]
            sum += Double(x * x)
            p = max(p, abs(x))
        }
        peak = Double(p)
        meanSquare = sum / Double(hi - lo)
    }

    /// The mean power in dBFS relative to a full-scale sine (power 0.5).
    var levelDBFS: Double { Decibels.clamped(Decibels.power(meanSquare / 0.5)) }
}
