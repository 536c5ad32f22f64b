import RealModule

// How much of one tone the other tone's filter reads: the steady leakage of correlated
// tones (closed form) and what a clean character leaks beyond it at its mark-space changes
// (measured once per tone pair on the demodulator's own front end).

extension FSKDemodulator {
    /// The fraction of a steady tone's energy over one bit that the other tone's correlator
    /// reads: |D|^2 with D = (1/N) sum over the bit's N samples of exp(i dw n), dw the tones'
    /// spacing in radians per sample, that is (sin(N dw / 2) / (N sin(dw / 2)))^2.
    ///
    /// Zero when a bit holds a whole number of cycles of the difference (SoftModem's tones,
    /// two cycles apart, at any rate); Bell 202 (1000 Hz apart at 1200 baud) 0.037, Bell 103
    /// (200 Hz at 300 baud) 0.17. Non-coherent detection of such correlated tones is still
    /// optimal by comparing the two energies (what ``FSKErrorTheory`` assumes), but every
    /// measure that reads the losing filter or |mark - space| as noise must take this part
    /// out, or a clean Bell 103 burst reads as 8 dB Eb/N0 of "cross-talk".
    static func toneLeakage(mark: Double, space: Double, samplesPerBit: Double, sampleRate: Double) -> Double {
        let half = Double.pi * abs(mark - space) / sampleRate
        let denominator = samplesPerBit * Double.sin(half)
        guard denominator > 1e-12 else { return 1 }  // same tones: all leaks (validate forbids it)
        let d = Double.sin(samplesPerBit * half) / denominator
        return min(d * d, 1)
    }

    /// ``toneLeakage`` and ``cleanCrossTalk`` for a configuration, both 0 when the tones
    /// leak more than ``FSKTuning/maxCompensatedLeakage``.
    static func leakages(_ c: DemodulatorConfiguration, front: SegmentFrontEnd) -> (Double, Double) {
        let leakage = toneLeakage(
            mark: c.profile.mark, space: c.profile.space, samplesPerBit: c.sampleRate / c.profile.baud,
            sampleRate: c.sampleRate)
        guard leakage <= FSKTuning.maxCompensatedLeakage else { return (0, 0) }
        let clean = cleanCrossTalk(
            configuration: c, segmentLength: front.segmentLength, window: front.window, span: front.span,
            toneLeakage: leakage)
        return (leakage, clean)
    }

    /// The largest fraction of a clean character's winning energy that its losing filter
    /// reads beyond the steady leakage (``toneLeakage``), over a few characters of a clean,
    /// phase-continuous sender at two alignments to the segment grid.
    ///
    /// Why it is measured rather than assumed: at a mark-space change the one-bit high-pass
    /// and the segment grid straddle both tones, and what leaks then depends on the tones'
    /// partial cycles per half bit. With whole cycles (SoftModem's tones at 44.1 kHz) it is
    /// nothing; Bell 202's 1200 Hz mark (one cycle per bit, so half a cycle per half bit)
    /// leaks up to 0.06 of a character's energy, Bell 103 up to 0.04. ``CharacterStructure``
    /// allows this much on top of what noise explains, or a clean Bell 202 burst at 16 dB
    /// Eb/N0 looked like speech and lost its first characters.
    ///
    /// Runs on a front end of its own (a few character times of samples, about 0.1 ms at
    /// 192 kHz); 0 when the profile cannot be modulated at the rate.
    static func cleanCrossTalk(
        configuration: DemodulatorConfiguration, segmentLength: Int, window: Int, span: Int, toneLeakage: Double
    ) -> Double {
        let profile = configuration.profile
        guard var modulator = try? FSKModulator(profile: profile, sampleRate: configuration.sampleRate, amplitude: 0.5)
        else { return 0 }
        let frameBits = configuration.format.bitsPerFrame
        // Characters with every change (0x55: 0101...) and with changes every other bit
        // (0x66: 0011...), between two idle mark bits each side.
        let values: [UInt8] = [0x55, 0x66]
        let idle = 2
        let bits = frameBits + 2 * idle
        var worst = 0.0
        var samples = [Float](repeating: 0, count: modulator.maxSamples(forBits: bits) + segmentLength)
        for value in values {
            for offset in [0, segmentLength / 2] {
                var front = SegmentFrontEnd(
                    mark: profile.mark, space: profile.space, sampleRate: configuration.sampleRate,
                    segmentLength: segmentLength, window: window, span: span, frameBits: frameBits)
                let character = configuration.format.wireBits(for: value)
                let ones: UInt32 = (1 << UInt32(idle)) - 1
                let all = ones | character << UInt32(idle) | ones << UInt32(idle + frameBits)
                let n = samples.withUnsafeMutableBufferPointer { buffer -> Int in
                    for i in 0..<offset { buffer[i] = 0 }
                    return offset + modulator.render(bits: all, count: bits, into: buffer.baseAddress! + offset)
                }
                samples.withUnsafeBufferPointer { buffer in
                    Self.feed(&front, buffer.baseAddress!, n)
                }
                worst = max(
                    worst,
                    Self.crossTalk(
                        front, from: Double(offset) + Double(idle) * modulator.samplesPerBit,
                        bitLength: modulator.samplesPerBit, frameBits: frameBits, toneLeakage: toneLeakage))
            }
        }
        return worst
    }

    /// Mixes and high-passes the whole segments of `n` samples into `front`'s ring.
    private static func feed(_ front: inout SegmentFrontEnd, _ x: UnsafePointer<Float>, _ n: Int) {
        front.makeUnique()
        var i = 0
        while n - i >= front.segmentLength {
            let count = front.mixWhole(x + i, n - i)
            var done = 0
            while done < count { done += front.append(front.storage.mixed + done, count - done, until: Int.max) }
            i += count * front.segmentLength
        }
    }

    /// The character starting at sample `start`: its losing energy beyond `toneLeakage`
    /// of its winning energy, as a fraction of the winning energy (as ``decideBits`` sums
    /// them). 0 when the ring does not cover it.
    private static func crossTalk(
        _ front: SegmentFrontEnd, from start: Double, bitLength: Double, frameBits: Int, toneLeakage: Double
    ) -> Double {
        let b = Double(front.segmentLength)
        var winning = 0.0
        var losing = 0.0
        for k in 0..<frameBits {
            let lo = roundToInt((start + Double(k) * bitLength) / b)
            let hi = roundToInt((start + Double(k + 1) * bitLength) / b)
            guard hi > lo, hi <= front.segments else { return 0 }
            let w = front.windowSums(lo, hi)
            winning += max(w.markEnergy, w.spaceEnergy) * w.inverseSamples
            losing += min(w.markEnergy, w.spaceEnergy) * w.inverseSamples
        }
        guard winning > 0 else { return 0 }
        return max(losing - toneLeakage * winning, 0) / winning
    }
}
