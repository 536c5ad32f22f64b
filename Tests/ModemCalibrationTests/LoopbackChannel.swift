import BoardModels
import ModemCalibration
import ModemDSP
import RealModule

/// A loopback cable made of the project's channel models, with known impairments, in the
/// order a real path applies them: playback clock (resampling), filters, level and
/// clipping, AGC, hum and noise, then the round-trip delay.
struct LoopbackChannel {
    var delay = 1234
    /// Capture clock relative to playback, ppm (positive: the capture records more samples).
    var driftPPM = 0.0
    /// A round trip through another rate and back (a sound server's converter).
    var viaRate: Double?
    var lowPass: Double?
    /// A converter's anti-alias filter: an eighth-order Butterworth low-pass at this frequency.
    var antiAlias: Double?
    var notch: (frequency: Double, q: Double)?
    var gainDB = -3.0
    var inverted = false
    var clipLevel: Float?
    var agc = false
    var humDBFS: Double?
    var noiseDBFS = -85.0
    var silent = false
    var sampleRate = 44_100.0

    func path(_ signal: [Float], _ phase: LoopbackTest.Phase) -> [Float] {
        var x = signal
        if driftPPM != 0 { x = Self.resample(x, step: 1 / (1 + driftPPM * 1e-6)) }
        if let viaRate {
            x = Self.resample(x, step: sampleRate / viaRate)
            x = Self.resample(x, step: viaRate / sampleRate)
        }
        if let lowPass {
            var a = SecondOrderSection(.lowPass, frequency: lowPass, sampleRate: sampleRate)
            var b = SecondOrderSection(.lowPass, frequency: lowPass, sampleRate: sampleRate)
            a.process(&x)
            b.process(&x)
        }
        if let antiAlias {
            for q in [0.5098, 0.6013, 0.9000, 2.5629] {
                var a = SecondOrderSection(.lowPass, frequency: antiAlias, sampleRate: sampleRate, q: q)
                a.process(&x)
            }
        }
        if let notch {
            var n = SecondOrderSection(.notch, frequency: notch.frequency, sampleRate: sampleRate, q: notch.q)
            n.process(&x)
        }
        LevelImpairments(gain: Float(Self.linear(gainDB)), inverted: inverted, clipLevel: clipLevel).process(&x)
        if agc {
            var g = AutomaticGainControl(target: 0.3, maxGain: 30, sampleRate: sampleRate)
            g.process(&x)
        }
        if let humDBFS {
            var h = ToneGenerator(frequency: 50, amplitude: Float(Self.linear(humDBFS)), sampleRate: sampleRate)
            h.process(&x)
        }
        var noise = WhiteNoiseChannel(levelDBFS: noiseDBFS, seed: phase == .measurement ? 1 : 2)
        noise.process(&x)
        if silent {
            x = [Float](repeating: 0, count: x.count)
            noise.process(&x)
        }
        var out = [Float](repeating: 0, count: delay)
        var lead = WhiteNoiseChannel(levelDBFS: noiseDBFS, seed: 3)
        lead.process(&out)
        out.append(contentsOf: x.prefix(max(0, signal.count - delay)))
        return out
    }

    static func resample(_ x: [Float], step: Double) -> [Float] {
        var r = Resampler(step: step)
        var out: [Float] = []
        out.reserveCapacity(Int(Double(x.count) / step) + 4)
        r.process(x, into: &out)
        return out
    }

    static func linear(_ dB: Double) -> Double { Decibels.linear(dB) }
}
