import RealModule

/// A fast Fourier transform of one power-of-two length (radix 2, in place), for the
/// detector's spectra: pure Swift, since the DSP core has no C of its own (FFTW, the
/// other modules' FFT, is C).
///
/// X[k] = sum over n of x[n] e^(-2 pi i k n / N), unscaled. The tables are made once per
/// length; ``transform(real:imaginary:)`` allocates nothing.
struct FourierTransform: Sendable {
    let count: Int
    private let cosines: [Double]
    private let sines: [Double]

    /// - Parameter count: a power of two, 2 or more; anything else is rounded up to one.
    init(count: Int) {
        var n = 2
        while n < count { n <<= 1 }
        self.count = n
        var c = [Double](repeating: 0, count: n / 2)
        var s = c
        for k in 0..<(n / 2) {
            c[k] = Double.cos(2 * Double.pi * Double(k) / Double(n))
            s[k] = Double.sin(2 * Double.pi * Double(k) / Double(n))
        }
        cosines = c
        sines = s
    }

    /// Transforms `real` + i `imaginary` (each ``count`` values) in place.
    func transform(real: inout [Double], imaginary: inout [Double]) {
        let n = count
        guard real.count == n, imaginary.count == n else { return }
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                cosines.withUnsafeBufferPointer { cos in
                    sines.withUnsafeBufferPointer { sin in Self.run(re, im, cos, sin) }
                }
            }
        }
    }

    private static func run(
        _ re: UnsafeMutableBufferPointer<Double>, _ im: UnsafeMutableBufferPointer<Double>,
        _ cos: UnsafeBufferPointer<Double>, _ sin: UnsafeBufferPointer<Double>
    ) {
        let n = re.count
        // Bit-reversed order first, so the butterflies work from neighbours outwards.
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var length = 2
        while length <= n {
            let half = length / 2
            let step = n / length
            var start = 0
            while start < n {
                for k in 0..<half {
                    let wr = cos[k * step]
                    let wi = -sin[k * step]
                    let a = start + k
                    let b = a + half
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                start += length
            }
            length <<= 1
        }
    }
}
