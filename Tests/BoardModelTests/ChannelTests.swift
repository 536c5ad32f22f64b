import BoardModels
import ModemDSP
import ModemTestSupport
import RealModule
import Testing

@Suite("Channel impairments")
struct ChannelTests {
    static let rate = 44_100.0

    static func tone(_ f: Double, amplitude: Float = 0.5, count: Int = 44_100) -> [Float] {
        var g = ToneGenerator(frequency: f, amplitude: amplitude, sampleRate: rate)
        var x = [Float](repeating: 0, count: count)
        g.process(&x)
        return x
    }

    /// Gain in dB of a filter on a steady tone, measured after the transient.
    static func gain(_ f: Double, _ filter: (inout [Float]) -> Void) -> Double {
        var x = tone(f)
        let before = Models.power(Array(x[22_050...]))
        filter(&x)
        return Decibels.power(Models.power(Array(x[22_050...])) / before)
    }

    @Test("biquad and one-pole filters: -3 dB at the corner, pass and stop bands")
    func filters() {
        #expect(
            abs(
                Self.gain(8_000) {
                    var f = SecondOrderSection(.lowPass, frequency: 8_000, sampleRate: Self.rate)
                    f.process(&$0)
                } + 3) < 0.3)
        #expect(
            abs(
                Self.gain(1_000) {
                    var f = SecondOrderSection(.lowPass, frequency: 8_000, sampleRate: Self.rate)
                    f.process(&$0)
                }) < 0.1)
        #expect(
            Self.gain(16_000) {
                var f = SecondOrderSection(.lowPass, frequency: 8_000, sampleRate: Self.rate)
                f.process(&$0)
            } < -10)
        #expect(
            abs(
                Self.gain(150) {
                    var f = SecondOrderSection(.highPass, frequency: 150, sampleRate: Self.rate)
                    f.process(&$0)
                } + 3) < 0.3)
        #expect(
            Self.gain(50) {
                var f = SecondOrderSection(.highPass, frequency: 150, sampleRate: Self.rate)
                f.process(&$0)
            } < -15)
        #expect(
            abs(
                Self.gain(500) {
                    var f = OnePoleFilter(.highPass, cornerFrequency: 500, sampleRate: Self.rate)
                    f.process(&$0)
                } + 3) < 0.5)
        #expect(
            abs(
                Self.gain(500) {
                    var f = OnePoleFilter(.lowPass, cornerFrequency: 500, sampleRate: Self.rate)
                    f.process(&$0)
                } + 3) < 0.5)
        // AC coupling removes DC.
        var dc = [Float](repeating: 0.5, count: 44_100)
        var coupling = OnePoleFilter.acCoupling(farads: 0.47e-6, ohms: 5_400, sampleRate: Self.rate)
        coupling.process(&dc)
        #expect(abs(dc.last!) < 1e-3)
    }

    @Test("chunked filtering equals one call")
    func streaming() {
        let x = Self.tone(3_000, count: 5_000)
        var whole = x
        var f1 = SecondOrderSection(.lowPass, frequency: 2_000, sampleRate: Self.rate)
        f1.process(&whole)
        var f2 = SecondOrderSection(.lowPass, frequency: 2_000, sampleRate: Self.rate)
        var pieces: [Float] = []
        for start in stride(from: 0, to: x.count, by: 777) {
            var piece = Array(x[start..<min(x.count, start + 777)])
            f2.process(&piece)
            pieces += piece
        }
        #expect(pieces == whole)
    }

    @Test("white noise has the requested full-band SNR")
    func noiseLevel() {
        var x = [Float](repeating: 0, count: 200_000)
        var noise = WhiteNoiseChannel(signalPower: 0.125, snr: 3, seed: 1)
        noise.process(&x)
        #expect(abs(Decibels.power(0.125 / Models.power(x)) - 3) < 0.1)
        var floor = [Float](repeating: 0, count: 200_000)
        var quiet = WhiteNoiseChannel(levelDBFS: -75, seed: 2)
        quiet.process(&floor)
        #expect(abs(Decibels.power(Models.power(floor) / 0.5) + 75) < 0.1)
    }

    @Test("resampling by 1.03 raises a tone 3 % and shortens it 3 %")
    func resampler() {
        let x = Self.tone(1_000, count: 44_100)
        var r = Resampler(step: 1.03)
        var y: [Float] = []
        r.process(Array(x[0..<10_000]), into: &y)
        r.process(Array(x[10_000...]), into: &y)
        #expect(abs(Double(y.count) - 44_100 / 1.03) < 3)
        // Count rising zero crossings: 1030 per second of input time.
        var crossings = 0
        for i in 1..<y.count where y[i - 1] < 0 && y[i] >= 0 { crossings += 1 }
        #expect(abs(Double(crossings) / (Double(y.count) / Self.rate) - 1_030) < 3)
    }

    @Test("AGC lifts a quiet tone to its target; clipping, inversion and offset")
    func levels() {
        var x = Self.tone(5_000, amplitude: 0.01)
        var agc = AutomaticGainControl(target: 0.5, maxGain: 100, sampleRate: Self.rate)
        agc.process(&x)
        let peak = x[22_050...].map { abs($0) }.max()!
        #expect(peak > 0.4 && peak < 0.7)
        var y: [Float] = [0.2, -0.9, 0.9, .nan]
        LevelImpairments(gain: 2, inverted: true, dcOffset: 0.1, clipLevel: 1).process(&y)
        #expect(y == [-0.3, 1, -1, 0])
    }

    @Test("a sweeping tone moves between its limits and back")
    func sweep() {
        let t = ToneGenerator(sweepingFrom: 3_000, to: 9_000, sweepSeconds: 2, amplitude: 0.1, sampleRate: Self.rate)
        #expect(t.frequency(at: 0) == 3_000)
        #expect(abs(t.frequency(at: 1) - 6_000) < 1e-6)
        #expect(abs(t.frequency(at: 2) - 9_000) < 1e-6)
        #expect(abs(t.frequency(at: 3) - 6_000) < 1e-6)
    }
}
