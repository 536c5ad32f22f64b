import ModemDSP
import RealModule

/// The bins of a level meter's power spectrum that matter for one profile: where the burst's
/// signal lies, where each tone lies, and where only noise should be.
struct LevelBands {
    /// Both tones with a margin of one baud each side: nearly all of an FSK burst's power.
    let toneBand: ClosedRange<Int>
    /// Each tone +- half a baud (less when the tones are closer than one baud).
    let mark: ClosedRange<Int>
    let space: ClosedRange<Int>
    /// 100 Hz up to one more baud below the tone band, and one more baud above it up to 90 %
    /// of Nyquist (sound cards' anti-alias filters roll off above): an FSK burst's skirts are
    /// 30 dB down or more there, so these bins hold the noise. A side under 8 bins is left out.
    let reference: [ClosedRange<Int>]
    let referenceCount: Int
    /// 100 Hz to 95 % of Nyquist: where the strongest tone is looked for.
    let searchable: ClosedRange<Int>
    /// Bins from DC to Nyquist minus one: the full band the SNR refers to.
    let fullBandBins: Double
    let binHz: Double

    init(profile: ModemProfile, sampleRate: Double, frameLength n: Int) {
        let binHz = sampleRate / Double(n)
        self.binHz = binHz
        let top = n / 2 - 1
        func bin(_ hz: Double) -> Int { max(1, min(top, Int((hz / binHz).rounded()))) }
        let low = min(profile.mark, profile.space)
        let high = max(profile.mark, profile.space)
        toneBand = bin(low - profile.baud)...max(bin(low - profile.baud), bin(high + profile.baud))
        let half = min(profile.baud / 2, (high - low) / 2)
        func around(_ f: Double) -> ClosedRange<Int> { bin(f - half)...max(bin(f - half), bin(f + half)) }
        mark = around(profile.mark)
        space = around(profile.space)
        var reference: [ClosedRange<Int>] = []
        let lowEnd = Int(((low - 2 * profile.baud) / binHz).rounded(.down))
        let lowStart = Int((100 / binHz).rounded(.up))
        if lowEnd - lowStart + 1 >= 8 { reference.append(lowStart...lowEnd) }
        let highStart = Int(((high + 2 * profile.baud) / binHz).rounded(.up))
        let highEnd = min(top, Int((0.9 * sampleRate / 2 / binHz).rounded(.down)))
        if highEnd - highStart + 1 >= 8 { reference.append(highStart...highEnd) }
        self.reference = reference
        referenceCount = reference.reduce(0) { $0 + $1.count }
        searchable = bin(100)...max(bin(100), min(top, Int(0.95 * sampleRate / 2 / binHz)))
        fullBandBins = Double(n / 2)
    }
}

/// Spectrum helpers over raw buffers (a level meter's spectra are raw pointers, see there).
enum SpectrumMath {
    static func sum(_ p: UnsafePointer<Double>, _ bins: ClosedRange<Int>) -> Double {
        var s = 0.0
        for k in bins { s += p[k] }
        return s
    }

    /// The median of `p` over `ranges`, divided by the median-to-mean ratio of a mean of
    /// `frames` exponential variables (a noise bin's power in one frame is exponential), so
    /// white noise reads its mean power per bin. The median ignores hum, harmonics and other
    /// spurs that a mean would count as noise. `scratch` holds at least the ranges' bins.
    static func noiseDensity(
        _ p: UnsafePointer<Double>, _ ranges: [ClosedRange<Int>], frames: Double,
        scratch: UnsafeMutablePointer<Double>
    ) -> Double? {
        var count = 0
        for r in ranges {
            for k in r {
                scratch[count] = p[k]
                count += 1
            }
        }
        guard count > 0, frames > 0 else { return nil }
        let median = select(scratch, count: count, rank: count / 2)
        // Median of a gamma(K) variable over its mean, from Wilson-Hilferty: about
        // 1 - 1/(3K) + 0.02/K^2 (ln 2 = 0.693 for K = 1).
        let k = frames
        return median / (1 - 1 / (3 * k) + 0.02 / (k * k))
    }

    /// The `rank`-th smallest of `values[0..<count]` (quickselect; reorders the values).
    static func select(_ values: UnsafeMutablePointer<Double>, count: Int, rank: Int) -> Double {
        var lo = 0
        var hi = count - 1
        while lo < hi {
            let pivot = values[(lo + hi) / 2]
            var i = lo
            var j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if rank <= j { hi = j } else if rank >= i { lo = i } else { break }
        }
        return values[rank]
    }

    /// The strongest bin in `bins` (which must not hold the first or last bin of `p`), its
    /// frequency refined by a parabola through the log power of it and its neighbours, and
    /// its power.
    static func strongest(_ p: UnsafePointer<Double>, _ bins: ClosedRange<Int>, binHz: Double) -> (
        bin: Int, frequency: Double, power: Double
    ) {
        var best = bins.lowerBound
        for k in bins where p[k] > p[best] { best = k }
        guard p[best] > 0, best > 0 else { return (best, Double(best) * binHz, p[best]) }
        let a = Double.log(max(p[best - 1], 1e-300))
        let b = Double.log(p[best])
        let c = Double.log(max(p[best + 1], 1e-300))
        let d = a - 2 * b + c
        let offset = d < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / d)) : 0
        return (best, (Double(best) + offset) * binHz, p[best])
    }
}

extension UnsafeMutablePointer where Pointee == Double {
    fileprivate func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }
}

extension SpectrumMath {
    /// Noise per bin beside an FSK burst, with the burst's own skirts taken out: a clean
    /// FSK signal's spectrum falls off with the distance from its tones (as the inverse
    /// square near them, the fourth power further out), which leaves it only 30 dB under its
    /// power two bauds away, enough to pass for noise. The reference bins are cut into groups
    /// of 16, each read by its median (spur-proof), and fitted with
    /// noise + a * sum((baud / (f - tone))^2) + b * sum((baud / (f - tone))^4)
    /// by least squares on relative errors; a skirt term that comes out negative is dropped.
    /// Nil when there are no reference bins.
    static func noiseDensity(
        _ p: UnsafePointer<Double>, _ ranges: [ClosedRange<Int>], frames: Double,
        tones: [Double], baud: Double, binHz: Double,
        scratch: UnsafeMutablePointer<Double>
    ) -> Double? {
        // Normal equations of y = n + a g2 + b g4, weights 1 / y^2: row i is x_i (x = 1, g2,
        // g4) against every x_j, then against y.
        var m = (r0: (0.0, 0.0, 0.0, 0.0), r1: (0.0, 0.0, 0.0, 0.0), r2: (0.0, 0.0, 0.0, 0.0))
        var groups = 0
        for r in ranges {
            var start = r.lowerBound
            while start + 7 <= r.upperBound {
                let end = min(r.upperBound, start + 15)
                guard let y = noiseDensity(p, [start...end], frames: frames, scratch: scratch) else { break }
                let f = Double(start + end) / 2 * binHz
                var g2 = 0.0
                var g4 = 0.0
                for t in tones {
                    let d = baud / (f - t)
                    g2 += d * d
                    g4 += d * d * d * d
                }
                let w = 1 / max(y * y, 1e-300)
                func add(_ row: inout (Double, Double, Double, Double), _ xi: Double) {
                    row.0 += w * xi
                    row.1 += w * xi * g2
                    row.2 += w * xi * g4
                    row.3 += w * xi * y
                }
                add(&m.r0, 1)
                add(&m.r1, g2)
                add(&m.r2, g4)
                groups += 1
                start = end + 1
            }
        }
        guard groups > 0 else { return nil }
        let mean = m.r0.3 / m.r0.0
        guard groups >= 6 else { return mean }
        let rows = [m.r0, m.r1, m.r2].map { [$0.0, $0.1, $0.2, $0.3] }
        // Try both skirt terms, then each alone; keep the first fit whose skirts are positive.
        for terms in [[0, 1, 2], [0, 2], [0, 1]] {
            guard let c = solve(rows, terms), c.dropFirst().allSatisfy({ $0 > 0 }) else { continue }
            return max(0, c[0])
        }
        return mean
    }

    /// Solves the normal equations restricted to `terms` (Gaussian elimination).
    private static func solve(_ m: [[Double]], _ terms: [Int]) -> [Double]? {
        let n = terms.count
        var a = terms.map { i in terms.map { m[i][$0] } + [m[i][3]] }
        for col in 0..<n {
            var pivot = col
            for r in col..<n where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            guard abs(a[pivot][col]) > 1e-300 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<n where r != col {
                let f = a[r][col] / a[col][col]
                for k in col...n { a[r][k] -= f * a[col][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}
