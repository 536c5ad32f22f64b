import Foundation
import Testing

@testable import ModemSpectrum

/// RealFFT computes a real transform through a half-size complex one and a split step; these
/// check it against a direct DFT in double precision, bin by bin.
struct RealFFTTests {
    /// max |X_k - DFT_k| over all bins, relative to sum |x| (the largest any bin can be).
    static func worstError(_ x: [Float]) -> Double {
        let fft = RealFFT(size: x.count)
        for i in x.indices { fft.input[i] = x[i] }
        fft.execute()
        let n = x.count
        let scale = max(x.reduce(0.0) { $0 + abs(Double($1)) }, 1e-30)
        var worst = 0.0
        for k in 0...(n / 2) {
            var re = 0.0
            var im = 0.0
            for (i, v) in x.enumerated() {
                let angle = -2 * Double.pi * Double(k * i % n) / Double(n)
                re += Double(v) * cos(angle)
                im += Double(v) * sin(angle)
            }
            let c = fft.output[k]
            worst = max(worst, hypot(Double(c.0) - re, Double(c.1) - im) / scale)
        }
        return worst
    }

    @Test("random input matches a direct DFT to float rounding", arguments: [2, 4, 6, 64, 250, 1024, 4096])
    func randomInput(size: Int) {
        var rng = SystemRandomNumberGenerator()
        let x = (0..<size).map { _ in Float.random(in: -1...1, using: &rng) }
        #expect(Self.worstError(x) < 2e-6)
    }

    @Test("special inputs: zeros, DC, an impulse, the Nyquist tone, one bin's cosine")
    func specialInputs() {
        let n = 256
        #expect(Self.worstError([Float](repeating: 0, count: n)) == 0)
        #expect(Self.worstError([Float](repeating: 0.5, count: n)) < 2e-6)
        var impulse = [Float](repeating: 0, count: n)
        impulse[3] = 1
        #expect(Self.worstError(impulse) < 2e-6)
        #expect(Self.worstError((0..<n).map { $0 % 2 == 0 ? 1 : -1 }) < 2e-6)
        #expect(Self.worstError((0..<n).map { Float(cos(2 * Double.pi * 17 * Double($0) / Double(n))) }) < 2e-6)
    }

    @Test("a cosine in bin 17 of 256 lands there with amplitude n/2 and nowhere else")
    func cosineBin() {
        let n = 256
        let fft = RealFFT(size: n)
        for i in 0..<n { fft.input[i] = Float(cos(2 * Double.pi * 17 * Double(i) / Double(n))) }
        fft.execute()
        #expect(abs(fft.output[17].0 - Float(n / 2)) < 1e-3)
        for k in 0...(n / 2) where k != 17 { #expect(fft.power(k) < 1e-6) }
    }
}
