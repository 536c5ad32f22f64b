import RealModule

/// The demodulator's local oscillators: both tones over a whole number of their own cycles,
/// laid out segment by segment, so mixing needs no rotation between segments.
///
/// Why a period rather than one segment: correlations from different segments are only
/// summable against a common phase reference. A table one segment long restarts its phase
/// every segment and needs every segment's result rotated (two complex products, plus the
/// rotation of the rotation). A table spanning a common period of both tones, stepped
/// through continuously, gives every segment its absolute phase for free.
///
/// The period is exact whenever the tones divide the sample rate rationally within a
/// reasonable length (every profile at the usual rates: 3 segments for softmodem-1225 at
/// 44.1 kHz, 160 at 48 kHz). Otherwise (a sender's measured tones, say 7302.6 Hz) each
/// tone is rounded to a whole number of cycles over ``approximatePeriodSamples`` samples:
/// at most `sampleRate / 16384` Hz off (2.7 Hz at 44.1 kHz), a phase error of about one
/// degree per bit at 1225 baud, far below what noise does to a bit.
///
/// Immutable after creation (shared freely between copies of a demodulator).
final class ToneMixer: @unchecked Sendable {
    // Safety: written only in init.
    /// Per sample over the period: cos and -sin of mark, then of space.
    let table: UnsafeMutablePointer<SIMD4<Float>>
    /// Per segment over the period: the sum over its samples of e^-jwn for mark (re, im),
    /// then space (re, im): what a constant input of 1 correlates to, for the high-pass.
    let segmentSums: UnsafeMutablePointer<SIMD4<Double>>
    /// Segments in one period (the table holds `segmentsPerPeriod * segmentLength` samples).
    let segmentsPerPeriod: Int
    /// The frequencies actually mixed with (nominal ones, or rounded as described above).
    let mark: Double
    let space: Double

    /// Longest exact period searched, in samples.
    static let maximumExactPeriodSamples = 16_384
    /// Period used when no exact one is that short.
    static let approximatePeriodSamples = 8_192

    init(mark: Double, space: Double, sampleRate: Double, segmentLength b: Int) {
        func whole(_ f: Double, _ samples: Int) -> Bool {
            let cycles = f * Double(samples) / sampleRate
            return abs(cycles - cycles.rounded()) < 1e-9 * max(1, cycles)
        }
        var segments = 0
        var l = 1
        while l * b <= Self.maximumExactPeriodSamples {
            if whole(mark, l * b) && whole(space, l * b) {
                segments = l
                break
            }
            l += 1
        }
        var (fm, fs) = (mark, space)
        if segments == 0 {
            segments = max(1, (Self.approximatePeriodSamples + b - 1) / b)
            let n = Double(segments * b)
            fm = (mark * n / sampleRate).rounded() * sampleRate / n
            fs = (space * n / sampleRate).rounded() * sampleRate / n
        }
        self.mark = fm
        self.space = fs
        segmentsPerPeriod = segments
        let samples = segments * b
        let wm = 2 * Double.pi * fm / sampleRate
        let ws = 2 * Double.pi * fs / sampleRate
        table = .allocate(capacity: samples)
        segmentSums = .allocate(capacity: segments)
        // Each segment starts from exact trigonometry; within it the oscillators advance by
        // one complex rotation per sample. Why: a measured tone pair has an 8192-sample
        // period, and four sines and cosines per sample made every new demodulator (one per
        // format tried on a detected burst) cost about 0.8 M instructions; the rotation
        // drifts by about 1e-16 per step in doubles, far under the tables' float precision.
        let stepMark = (re: Double.cos(wm), im: -Double.sin(wm))
        let stepSpace = (re: Double.cos(ws), im: -Double.sin(ws))
        for k in 0..<segments {
            var sum = SIMD4<Double>.zero
            let n = Double(k * b)
            // Phases reduced to one turn before the trigonometry keeps every segment's
            // start as accurate as the first.
            let pm = wm * n - 2 * Double.pi * (wm * n / (2 * Double.pi)).rounded(.down)
            let ps = ws * n - 2 * Double.pi * (ws * n / (2 * Double.pi)).rounded(.down)
            var m = (re: Double.cos(pm), im: -Double.sin(pm))
            var s = (re: Double.cos(ps), im: -Double.sin(ps))
            for j in 0..<b {
                let e = SIMD4(m.re, m.im, s.re, s.im)
                table[k * b + j] = SIMD4<Float>(e)
                sum += e
                m = (m.re * stepMark.re - m.im * stepMark.im, m.re * stepMark.im + m.im * stepMark.re)
                s = (s.re * stepSpace.re - s.im * stepSpace.im, s.re * stepSpace.im + s.im * stepSpace.re)
            }
            segmentSums[k] = sum
        }
    }

    deinit {
        table.deallocate()
        segmentSums.deallocate()
    }
}
