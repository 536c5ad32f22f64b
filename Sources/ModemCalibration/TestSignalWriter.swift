import ModemDSP
import RealModule

/// Appends the loopback test's signals to a timeline: silence, steady tones and chirps, each
/// with short raised-cosine fades so no step clicks (a click would splash energy across the
/// sweep's other frequencies and start an AGC early).
struct TestSignalWriter {
    let sampleRate: Double
    private(set) var samples: [Float] = []
    /// Fade-in and fade-out length of tones and chirps, in samples (5 ms).
    let fadeSamples: Int

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        fadeSamples = max(1, Int(0.005 * sampleRate))
    }

    /// The next sample index (where the next segment starts).
    var position: Int { samples.count }

    func count(seconds: Double) -> Int { max(0, Int((seconds * sampleRate).rounded())) }

    mutating func silence(seconds: Double) {
        samples.append(contentsOf: repeatElement(0, count: count(seconds: seconds)))
    }

    /// A cosine of `frequency` Hz at peak `dBFS` for `seconds`.
    mutating func tone(frequency: Double, dBFS: Double, seconds: Double) {
        let n = count(seconds: seconds)
        let a = Decibels.linear(dBFS)
        let w = 2 * Double.pi * frequency / sampleRate
        samples.reserveCapacity(samples.count + n)
        for i in 0..<n { samples.append(Float(a * fade(i, n) * Double.cos(w * Double(i)))) }
    }

    /// A linear chirp from `low` to `high` Hz at peak `dBFS` for `seconds`.
    mutating func chirp(low: Double, high: Double, dBFS: Double, seconds: Double) {
        samples.append(
            contentsOf: Self.chirp(low: low, high: high, dBFS: dBFS, seconds: seconds, sampleRate: sampleRate))
    }

    /// The chirp alone, for correlating with what came back.
    static func chirp(low: Double, high: Double, dBFS: Double, seconds: Double, sampleRate: Double) -> [Float] {
        let writer = TestSignalWriter(sampleRate: sampleRate)
        let n = writer.count(seconds: seconds)
        let a = Decibels.linear(dBFS)
        let duration = Double(n) / sampleRate
        return (0..<n).map { i in
            let t = Double(i) / sampleRate
            let phase = 2 * Double.pi * (low * t + (high - low) * t * t / (2 * duration))
            return Float(a * writer.fade(i, n) * Double.sin(phase))
        }
    }

    /// Appends samples made elsewhere (modem bursts).
    mutating func append(_ other: [Float]) { samples.append(contentsOf: other) }

    /// The raised-cosine envelope at sample `i` of `n`.
    private func fade(_ i: Int, _ n: Int) -> Double {
        let f = min(fadeSamples, n / 2)
        guard f > 0 else { return 1 }
        let edge = min(i, n - 1 - i)
        return edge >= f ? 1 : 0.5 - 0.5 * Double.cos(Double.pi * Double(edge) / Double(f))
    }
}
