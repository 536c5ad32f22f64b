import RealModule

/// The averaged power spectrum of a few blocks of samples over the modem band (300 Hz to
/// 0.45 x the sample rate), and the tones standing out of it.
///
/// A radix-2 FFT (``FourierTransform``) of each Hann-windowed block: the automatic receiver
/// runs it at the start of every burst, so a per-bin DFT (20 ms a burst) would cost more
/// than decoding.
struct BandSpectrum {
    /// One tone: its frequency (interpolated between bins), its mean power in the blocks
    /// (a sine of amplitude A reads A^2 / 2) and how far it stands above the band's median.
    struct Tone {
        var frequency: Double
        var power: Double
        var prominence: Double
    }

    let sampleRate: Double
    let length: Int
    let firstBin: Int
    /// Mean power per bin, scaled so a sine's peak bin reads its power.
    let powers: [Double]

    static let lowestFrequency = 300.0

    init(blocks: [ArraySlice<Float>], sampleRate: Double) {
        self.sampleRate = sampleRate
        let samples = blocks.first?.count ?? SignalSurvey.blockLength
        // Blocks of another length than a power of two are zero-padded to one.
        let fourier = FourierTransform(count: samples)
        length = fourier.count
        let n = length
        let binWidth = sampleRate / Double(n)
        firstBin = max(1, Int((Self.lowestFrequency / binWidth).rounded(.up)))
        let lastBin = min(n / 2 - 1, Int(0.45 * sampleRate / binWidth))
        var window = [Double](repeating: 0, count: samples)
        var windowSum = 0.0
        for i in 0..<samples {
            window[i] = 0.5 - 0.5 * Double.cos(2 * Double.pi * Double(i) / Double(samples))
            windowSum += window[i]
        }
        var sums = [Double](repeating: 0, count: max(0, lastBin - firstBin + 1))
        var real = [Double](repeating: 0, count: n)
        var imaginary = real
        for block in blocks where block.count == samples {
            var i = 0
            for x in block {
                real[i] = Double(x) * window[i]
                i += 1
            }
            for k in samples..<n { real[k] = 0 }
            for k in 0..<n { imaginary[k] = 0 }
            fourier.transform(real: &real, imaginary: &imaginary)
            for k in sums.indices {
                let bin = firstBin + k
                sums[k] += real[bin] * real[bin] + imaginary[bin] * imaginary[bin]
            }
        }
        // |X|^2 of a sine of amplitude A at a bin centre is (A * windowSum / 2)^2: scale to A^2 / 2.
        let scale = 2 / (windowSum * windowSum) / Double(max(blocks.count, 1))
        powers = sums.map { $0 * scale }
    }

    func frequency(ofBin k: Int) -> Double { Double(firstBin + k) * sampleRate / Double(length) }

    /// Share of the band's power within `width` Hz of any of `tones` (0 for an empty band).
    func share(near tones: [Double], width: Double) -> Double {
        var near = 0.0
        var total = 0.0
        for k in powers.indices {
            let f = frequency(ofBin: k)
            total += powers[k]
            if tones.contains(where: { abs($0 - f) <= width }) { near += powers[k] }
        }
        return total > 0 ? near / total : 0
    }

    /// The largest bin power within `width` Hz of `centre` (0 outside the band).
    func strongest(within width: Double, of centre: Double) -> Double {
        var best = 0.0
        for k in powers.indices where abs(frequency(ofBin: k) - centre) <= width { best = max(best, powers[k]) }
        return best
    }

    /// The median bin power: the band's floor.
    var floor: Double {
        guard !powers.isEmpty else { return 0 }
        return powers.sorted()[powers.count / 2]
    }

    /// Local maxima standing at least `minimumProminence` (power ratio) above the floor,
    /// strongest first, at least `separation` Hz apart.
    func tones(minimumProminence: Double, separation: Double = 150) -> [Tone] {
        let f = max(floor, 1e-30)
        var found: [Tone] = []
        let order = powers.indices.sorted { powers[$0] > powers[$1] }
        for k in order {
            let p = powers[k]
            guard p >= minimumProminence * f else { break }
            if k > 0 && powers[k - 1] > p { continue }
            if k + 1 < powers.count && powers[k + 1] > p { continue }
            // Parabolic interpolation on log power for the peak's position between bins.
            var offset = 0.0
            if k > 0 && k + 1 < powers.count {
                let a = Double.log(max(powers[k - 1], 1e-30))
                let b = Double.log(p)
                let c = Double.log(max(powers[k + 1], 1e-30))
                let d = a - 2 * b + c
                if d < 0 { offset = max(-0.5, min(0.5, 0.5 * (a - c) / d)) }
            }
            let hz = (Double(firstBin + k) + offset) * sampleRate / Double(length)
            if found.contains(where: { abs($0.frequency - hz) < separation }) { continue }
            found.append(Tone(frequency: hz, power: p, prominence: p / f))
            if found.count == 8 { break }
        }
        return found
    }
}
