public import ModemDSP
import RealModule

/// Measures the actual mark and space frequencies and levels of FSK bursts with FFTW.
///
/// Two estimates from the same frames (length ``frameLength``, hop half a frame):
/// * ``peak(from:to:)``: the averaged Hann-windowed power spectrum (zero-padded 4x), its
///   strongest bin in a range refined by a parabola through the log power of three bins.
///   Exact for steady tones; for FSK it finds the spectral lines, which sit on the true tones
///   only when the tones are a whole number of cycles per bit (SoftModem's 4900/7350 Hz).
/// * ``measurement()`` (falls back to the spectral line in noise, see there): the analytic
///   signal of each frame (FFT, keep the positive modem band,
///   inverse FFT), its instantaneous frequency per sample, split at the midpoint of the
///   nominal tones; each side's |z|^2-weighted mean frequency within +-``searchFraction`` of
///   its nominal tone is that tone's frequency, and its mean |z|^2 its level. This holds for
///   any tones, e.g. the iPhone app's 7300 Hz mark (5.96 cycles per bit).
///
/// Only frames with at least 4x (6 dB) the power of the quietest frame so far (which starts
/// at -87 dBFS) are used, so silence and the noise between bursts do not dilute a burst.
/// Streaming: ``process(_:)`` takes chunks of any size; ``reset()`` between bursts. Memory is
/// fixed at construction. NaN and infinite samples are read as 0; samples so large that the
/// single-precision transforms overflow spoil only their own frames.
public final class BurstSpectrumAnalyzer {
    /// The profile whose nominal tones set the analysed band and where each tone is looked for.
    public let profile: ModemProfile
    /// Samples per second of the input, in Hz.
    public let sampleRate: Double
    /// Samples per analysis frame (a power of two).
    public let frameLength: Int
    /// How far from a nominal tone its measurement may lie (0.12 = +-12 %).
    public let searchFraction: Double

    private let fft: RealFFT
    private let inverse: ComplexFFT
    // Raw buffers from the pool, not array properties (see ``BufferPool``): the loops below
    // touch them per sample, and array properties' checks were most of this class's time.
    private let buffers: BufferPool
    private let window: UnsafeMutablePointer<Float>
    private let windowEnergy: Double
    /// The last `frameLength` samples, a ring indexed by `filled & (frameLength - 1)`.
    private let history: UnsafeMutablePointer<Float>
    private var filled = 0
    private var sinceFrame = 0
    /// Accumulated power spectrum, bins 0...2 * frameLength.
    private let sum: UnsafeMutablePointer<Double>
    private let sumCount: Int
    private let bandLow: Int
    private let bandHigh: Int
    private var quietestFrame = 1e-9
    /// Frames added to the current measurement.
    public private(set) var framesAccumulated = 0
    /// Spectral mask of the analytic-signal filter: 1 in the modem band, raised-cosine
    /// skirts (a hard edge would ring through the whole frame and bend the frequency).
    private let mask: UnsafeMutablePointer<Float>
    // Histogram of instantaneous frequency (|z|^2-weighted, ``histogramStep`` Hz bins) and
    // per-bin power, sample counts.
    private static let histogramStep = 2.0
    private let histogramLow: Double
    private let histogram: UnsafeMutablePointer<Double>
    private let histogramCount: UnsafeMutablePointer<Double>
    private let histogramBins: Int

    /// An analyzer for `profile` at `sampleRate`; `frameLength` nil picks the power of two at
    /// or above 24 bits (1024 samples at 1225 baud and 44.1 kHz).
    public init(profile: ModemProfile, sampleRate: Double, frameLength: Int? = nil, searchFraction: Double = 0.12) {
        self.profile = profile
        self.sampleRate = sampleRate
        self.searchFraction = searchFraction
        let wanted = frameLength ?? Int(sampleRate / profile.baud * 24)
        var n = 64
        while n < wanted && n < 65_536 { n *= 2 }
        self.frameLength = n
        fft = RealFFT(size: 4 * n)
        inverse = ComplexFFT(size: 4 * n, direction: .backward)
        let pool = BufferPool()
        buffers = pool
        (window, windowEnergy) = pool.hannWindow(n)
        history = pool.zeroed(n)
        sumCount = 2 * n + 1
        sum = pool.zeroed(sumCount)
        let binHz = sampleRate / Double(4 * n)
        let low = min(profile.mark, profile.space) * (1 - 2 * searchFraction)
        let high = min(max(profile.mark, profile.space) * (1 + 2 * searchFraction), sampleRate / 2)
        bandLow = max(1, Int(low / binHz))
        bandHigh = min(2 * n - 1, Int(high / binHz) + 1)
        let skirt = max(1, (bandHigh - bandLow) / 6)
        mask = pool.zeroed(2 * n + 1)
        for k in bandLow...bandHigh {
            let edge = min(k - bandLow, bandHigh - k)
            mask[k] = edge >= skirt ? 1 : Float(0.5 - 0.5 * Double.cos(Double.pi * Double(edge) / Double(skirt)))
        }
        histogramLow = Double(bandLow) * binHz
        histogramBins = Int((Double(bandHigh - bandLow) * binHz / Self.histogramStep).rounded(.up)) + 1
        histogram = pool.zeroed(histogramBins)
        histogramCount = pool.zeroed(histogramBins)
    }

    /// Forgets the accumulated measurement (keeps the quiet-frame reference). Free when
    /// nothing was accumulated (frames are only ever added with `framesAccumulated`).
    public func reset() {
        guard framesAccumulated > 0 else { return }
        sum.update(repeating: 0, count: sumCount)
        histogram.update(repeating: 0, count: histogramBins)
        histogramCount.update(repeating: 0, count: histogramBins)
        framesAccumulated = 0
    }

    /// Feeds samples (NaN and infinities read as 0), analysing a frame every half frame once
    /// a whole one is in.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        guard var x = samples.baseAddress else { return }
        let n = frameLength
        let hop = n / 2
        let ringMask = n - 1
        var remaining = samples.count
        var filled = self.filled
        var sinceFrame = self.sinceFrame
        while remaining > 0 {
            // Copy up to the sample that makes the next frame due (a whole frame in, and half
            // a frame since the last), then analyse: the same frames as one sample at a time.
            let take = min(remaining, max(1, n - filled, hop - sinceFrame))
            for i in 0..<take {
                let v = x[i]
                history[(filled &+ i) & ringMask] = v.isFinite ? v : 0
            }
            filled += take
            sinceFrame += take
            x += take
            remaining -= take
            if filled >= n && sinceFrame >= hop {
                sinceFrame = 0
                analyseFrame(endingAt: filled)
            }
        }
        self.filled = filled
        self.sinceFrame = sinceFrame
    }

    /// Feeds an array of samples, as the buffer overload does.
    public func process(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { process($0) }
    }

    private func analyseFrame(endingAt end: Int) {
        let n = frameLength
        let ringMask = n - 1
        let size = 4 * n
        var power = 0.0
        let start = end - n
        let input = fft.input
        for i in 0..<n {
            let v = history[(start + i) & ringMask]
            power += Double(v) * Double(v)
            input[i] = v
        }
        power /= Double(n)
        quietestFrame = min(quietestFrame, power)
        guard power >= 4 * quietestFrame || framesAccumulated > 0 && power >= 2 * quietestFrame else { return }
        framesAccumulated += 1

        // Analytic signal of the unwindowed frame (zero-padded, so no wrap-around into the
        // central half), band-limited to the modem band. The padding (input n..<4n) and the
        // inverse transform's bins outside the band were zeroed at creation and are never
        // written: FFTW's complex out-of-place transforms leave their input alone.
        fft.execute(bins: bandLow...bandHigh)
        let spectrum = fft.output
        let band = inverse.input
        for k in bandLow...bandHigh {
            let c = spectrum[k]
            let g = 2 * mask[k] / Float(size)
            band[k] = (g * c.0, g * c.1)
        }
        inverse.execute()
        let z = inverse.output
        let toHz = sampleRate / (2 * Double.pi)
        let bins = histogramBins
        // The central half of the frame: each sample is measured once (hop = n/2).
        for i in (n / 4)..<(3 * n / 4) {
            let a = z[i]
            let b = z[i + 1]
            // arg(b * conj(a)): phase advance over one sample.
            let re = Double(b.0) * Double(a.0) + Double(b.1) * Double(a.1)
            let im = Double(b.1) * Double(a.0) - Double(b.0) * Double(a.1)
            let w = Double(a.0) * Double(a.0) + Double(a.1) * Double(a.1)
            guard w > 0 else { continue }
            let f = Double.atan2(y: im, x: re) * toHz
            // Range-checked before the conversion, which traps on NaN and infinities: huge
            // samples overflow the float transforms, and their frame's phases are NaN.
            let position = (f - histogramLow) / Self.histogramStep
            guard position > -1, position < Double(bins) else { continue }
            let bin = Int(position)
            histogram[bin] += w
            histogramCount[bin] += 1
        }

        // Windowed power spectrum for peak(from:to:).
        for i in 0..<n { input[i] = history[(start + i) & ringMask] * window[i] }
        fft.execute()
        for k in 0..<sumCount { sum[k] += Double(fft.power(k)) }
    }

    /// The strongest spectral peak within `[low, high]` Hz, or nil when nothing was
    /// accumulated (or a bound is not finite). Its power is the lobe's share of the frames' mean power.
    public func peak(from low: Double, to high: Double) -> ToneMeasurement? {
        guard framesAccumulated > 0, low.isFinite, high.isFinite else { return nil }
        let size = Double(fft.size)
        let binHz = sampleRate / size
        let lo = max(2, Int((low / binHz).rounded(.down)))
        let hi = min(sumCount - 3, Int((high / binHz).rounded(.up)))
        guard lo < hi else { return nil }
        let (best, frequency, strongest) = SpectrumMath.strongest(sum, lo...hi, binHz: binHz)
        guard strongest > 0 else { return nil }
        // The Hann lobe of a 4x zero-padded frame spans +-8 bins. Parseval: the positive lobe
        // of x = A cos holds (A^2/4) * N_fft * sum(w^2), and the tone's power is A^2/2.
        var lobe = 0.0
        for k in max(0, best - 8)...min(sumCount - 1, best + 8) { lobe += sum[k] }
        let power = 2 * lobe / (size * windowEnergy) / Double(framesAccumulated)
        return ToneMeasurement(frequency: frequency, power: power)
    }

    /// The mark and space tones of what was accumulated (instantaneous-frequency method);
    /// nil for a tone with fewer than 32 samples near it. Power is the tone's mean power while
    /// it was on (a sine of peak A reads A^2/2).
    ///
    /// A steady tone piles its samples into one histogram bin; bit transitions and noise
    /// spread theirs. So each tone is the |z|^2-weighted centroid of +-6 Hz around the
    /// histogram's heaviest bin inside +-``searchFraction`` of the nominal tone (its level:
    /// mean |z|^2 within +-baud/8). When that bin is not sharp (noise) or lies more than
    /// baud/16 from the spectral line (data that never lets a tone settle), the spectral line from ``peak(from:to:)`` gives the frequency
    /// instead: exact when the tones are whole cycles per bit, as a SoftModem board's are
    /// at any clock error.
    public func measurement() -> (mark: ToneMeasurement?, space: ToneMeasurement?) {
        (tone(near: profile.mark), tone(near: profile.space))
    }

    private func tone(near nominal: Double) -> ToneMeasurement? {
        let step = Self.histogramStep
        func bin(_ f: Double) -> Int { min(histogramBins - 1, max(0, Int((f - histogramLow) / step))) }
        let lo = bin(nominal * (1 - searchFraction))
        let hi = bin(nominal * (1 + searchFraction))
        guard lo < hi else { return nil }
        var best = lo
        for k in lo...hi where histogram[k] > histogram[best] { best = k }
        guard histogram[best] > 0 else { return nil }
        // Level: mean |z|^2 within +-baud/8 of the mode.
        let half = max(3, Int(profile.baud / 8 / step))
        var wide = 0.0
        var count = 0.0
        for k in max(0, best - half)...min(histogramBins - 1, best + half) {
            wide += histogram[k]
            count += histogramCount[k]
        }
        guard count >= 32, wide > 0 else { return nil }
        let power = wide / count / 2
        // Frequency: the mode's centroid over +-3 bins when the mode is sharp (a clean signal
        // puts 15-25 % of the weight near the tone within 6 Hz, white noise at +10 dB about
        // 5 %) and within baud/16 of the spectral line (strictly alternating bits never let
        // a tone settle and make a false sharp mode); otherwise the spectral line.
        var w = 0.0
        var wf = 0.0
        for k in max(0, best - 3)...min(histogramBins - 1, best + 3) {
            w += histogram[k]
            wf += histogram[k] * (histogramLow + (Double(k) + 0.5) * step)
        }
        let line = peak(from: nominal * (1 - searchFraction), to: nominal * (1 + searchFraction))
        let instantaneous = wf / w
        if w >= 0.12 * wide, line.map({ abs($0.frequency - instantaneous) < profile.baud / 16 }) ?? true {
            return ToneMeasurement(frequency: instantaneous, power: power)
        }
        return line.map { ToneMeasurement(frequency: $0.frequency, power: power) }
    }

    /// A profile with the measured tones (and the bit rate scaled by their mean ratio to the
    /// nominal ones, as a sender's clock error scales both), or nil when a tone was not found
    /// or both are within `tolerance` (fraction) of nominal.
    public func suggestedProfile(tolerance: Double = 0.003) -> ModemProfile? {
        let (mark, space) = measurement()
        guard let mark, let space else { return nil }
        let rm = mark.frequency / profile.mark
        let rs = space.frequency / profile.space
        guard abs(rm - 1) > tolerance || abs(rs - 1) > tolerance else { return nil }
        var p = profile.overriding(baud: profile.baud * (rm + rs) / 2, mark: mark.frequency, space: space.frequency)
        p.name = "measured"
        return p
    }
}
