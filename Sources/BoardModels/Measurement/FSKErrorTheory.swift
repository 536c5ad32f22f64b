import ModemDSP
import RealModule

/// Bit error rates of binary FSK in white Gaussian noise for any tone spacing: the limits
/// `bench ber` prints beside its measurements.
///
/// The two tones of a profile are orthogonal over a bit only when their spacing is a whole
/// number of half bit rates (SoftModem: 2450 Hz at 1225 baud, h = 2). Bell 202 (1000 Hz at
/// 1200 baud, h = 0.83) and Bell 103 (200 Hz at 300 baud, h = 0.67) are not: their
/// signals correlate, and the orthogonal formulas (0.5 exp(-Eb/2N0) and
/// 0.5 erfc(sqrt(Eb/2N0))) promise them a decibel or two they cannot have.
///
/// With modulation index `h` = spacing / bit rate:
/// - non-coherent (envelope) detection, correlation magnitude |rho| = |sin(pi h) / (pi h)|:
///   Pb = Q1(a, b) - 0.5 exp(-(a^2 + b^2) / 2) I0(a b), with
///   a, b = sqrt(Eb/2N0 (1 -/+ sqrt(1 - |rho|^2))) (Proakis, Digital Communications, the
///   correlated binary signals of section 5.4), Q1 Marcum's Q function;
/// - coherent detection, real correlation rho = sin(2 pi h) / (2 pi h):
///   Pb = Q(sqrt(Eb/N0 (1 - rho))).
///
/// Both reduce to the orthogonal formulas when |rho| = 0. Edge cases: `ebN0` is linear
/// (not dB); zero or negative gives 0.5; NaN gives NaN. Evaluated by numerical integration
/// (pure Swift, relative error below 1e-6 down to rates of 1e-12; smaller rates come out as
/// about 0), fast enough for a table, not for a loop per sample.
public enum FSKErrorTheory {
    /// Non-coherent detection's bit error rate at `ebN0` (linear) and modulation index `h`.
    public static func nonCoherentBitErrorRate(ebN0: Double, modulationIndex h: Double) -> Double {
        guard !ebN0.isNaN, !h.isNaN else { return .nan }
        guard ebN0 > 0 else { return 0.5 }
        let rho = abs(sinc(Double.pi * h))
        let root = (max(0, 1 - rho * rho)).squareRoot()
        let a = (ebN0 / 2 * (1 - root)).squareRoot()
        let b = (ebN0 / 2 * (1 + root)).squareRoot()
        let second = 0.5 * Double.exp(-(b - a) * (b - a) / 2) * scaledBesselI0(a * b)
        return min(0.5, max(0, marcumQ1(a, b) - second))
    }

    /// Coherent detection's bit error rate at `ebN0` (linear) and modulation index `h`.
    public static func coherentBitErrorRate(ebN0: Double, modulationIndex h: Double) -> Double {
        guard !ebN0.isNaN, !h.isNaN else { return .nan }
        guard ebN0 > 0 else { return 0.5 }
        let rho = sinc(2 * Double.pi * h)
        return gaussianTail((ebN0 * (1 - rho)).squareRoot())
    }

    /// sin(x) / x, 1 at 0.
    static func sinc(_ x: Double) -> Double {
        abs(x) < 1e-9 ? 1 : Double.sin(x) / x
    }

    /// P(X > x) for a standard normal X (x >= 0).
    static func gaussianTail(_ x: Double) -> Double {
        integrate(from: x) { t in Double.exp(-t * t / 2) / (2 * Double.pi).squareRoot() }
    }

    /// Marcum's Q1(a, b) = integral from b to infinity of x exp(-(x^2 + a^2)/2) I0(a x) dx,
    /// written with the scaled Bessel function so that nothing overflows:
    /// exp(-(x^2 + a^2)/2) I0(a x) = exp(-(x - a)^2 / 2) I0e(a x).
    static func marcumQ1(_ a: Double, _ b: Double) -> Double {
        integrate(from: b) { x in x * Double.exp(-(x - a) * (x - a) / 2) * scaledBesselI0(a * x) }
    }

    /// exp(-z) I0(z) for z >= 0: the power series below 15, the asymptotic series above
    /// (its first omitted term is below 3e-6 relative there).
    static func scaledBesselI0(_ z: Double) -> Double {
        if z < 15 {
            let q = z * z / 4
            var term = 1.0
            var sum = 1.0
            var k = 1.0
            while term > 1e-17 * sum {
                term *= q / (k * k)
                sum += term
                k += 1
            }
            return sum * Double.exp(-z)
        }
        let u = 1 / (8 * z)
        return (1 + u * (1 + u * (4.5 + u * 37.5))) / (2 * Double.pi * z).squareRoot()
    }

    /// Simpson's rule over [from, from + 40] in steps of 1/256: every integrand here has a
    /// Gaussian factor that is below 1e-300 of its value at `from` by then.
    static func integrate(from lower: Double, _ f: (Double) -> Double) -> Double {
        let steps = 40 * 256
        let h = 40.0 / Double(steps)
        var sum = f(lower) + f(lower + 40)
        for i in 1..<steps {
            sum += (i % 2 == 1 ? 4 : 2) * f(lower + Double(i) * h)
        }
        return sum * h / 3
    }
}
