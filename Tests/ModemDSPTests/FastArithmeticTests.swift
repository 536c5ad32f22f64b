import RealModule
import Testing

@testable import ModemDSP

/// The demodulator's own rounding and arctangent against the math library (RealModule), over
/// ordinary arguments and the special values; and the package's decibel conversions.
struct FastArithmeticTests {
    /// Arguments from -1000 to 1000 rad, irregularly spaced so no period aliases the grid.
    static let angles: [Double] = (-20_000...20_000).map { Double($0) * 0.049_999_7 }

    @Test("roundToInt is floor(x + 0.5): halves, negatives, near-integers and large values")
    func roundToIntMatchesFloor() {
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
            1e-300, -1e-300, 0x1p50 - 1, -(0x1p50 - 1), 0x1p50 - 0.5, -(0x1p50) + 0.5, 12345.5, -12345.5,
        ]
        var g = SeededGenerator(seed: 9)
        for _ in 0..<100_000 {
            let scale = Double(1 << (g.next() % 50))
            values.append((Double(g.next() % 2_000_001) / 1_000_000 - 1) * scale)
            let k = Double(Int64(truncatingIfNeeded: g.next()) % (1 << 40))
            values += [k, k + 0.5, k - 0.5, k.nextUp, k.nextDown, (k + 0.5).nextDown, (k + 0.5).nextUp]
        }
        for x in values {
            #expect(roundToInt(x) == Int((x + 0.5).rounded(.down)), "x = \(x)")
        }
    }

    @Test("arcTangent2 is within 1e-9 of atan2 in every quadrant and on the axes")
    func arcTangent() {
        var worst = 0.0
        let values: [Double] = [0, 1e-300, 1e-9, 0.001, 0.3, 0.41421356237309503, 0.5, 1, 2.4, 7, 1e6, 1e300]
        for a in values {
            for b in values {
                for (y, x) in [(a, b), (-a, b), (a, -b), (-a, -b)] where !(x == 0 && y == 0) {
                    // Signed zeros are not distinguished: -0 is read as +0.
                    worst = max(worst, abs(arcTangent2(y, x) - Double.atan2(y: y == 0 ? 0 : y, x: x)))
                }
            }
        }
        for x in Self.angles {
            worst = max(
                worst, abs(arcTangent2(Double.sin(x), Double.cos(x)) - Double.atan2(y: Double.sin(x), x: Double.cos(x)))
            )
        }
        #expect(worst < 1e-9, "worst error \(worst)")
    }

    @Test("arcTangent2 special values: origin, signed zero, infinities, NaN")
    func arcTangentSpecialValues() {
        #expect(arcTangent2(0, 0) == 0)
        #expect(abs(arcTangent2(-0.0, -1) - Double.pi) < 1e-15)
        #expect(abs(arcTangent2(.infinity, 1) - Double.pi / 2) < 1e-15)
        #expect(abs(arcTangent2(-.infinity, 1) + Double.pi / 2) < 1e-15)
        #expect(arcTangent2(1, .infinity) == 0)
        #expect(abs(arcTangent2(1, -.infinity) - Double.pi) < 1e-15)
        #expect(arcTangent2(.infinity, .infinity).isNaN)
        #expect(arcTangent2(.nan, 1).isNaN)
        #expect(arcTangent2(1, .nan).isNaN)
    }

    @Test("Decibels: powers and amplitudes both ways; zero is -infinity, negative and NaN are NaN")
    func decibels() {
        #expect(abs(Decibels.power(100) - 20) < 1e-12)
        #expect(abs(Decibels.amplitude(0.5) + 6.020599913279624) < 1e-12)
        #expect(abs(Decibels.amplitude(-0.5) - Decibels.amplitude(0.5)) < 1e-15)
        for dB in stride(from: -120.0, through: 20, by: 0.7) {
            #expect(abs(Decibels.power(Decibels.powerRatio(dB)) - dB) < 1e-9, "\(dB) dB")
            #expect(abs(Decibels.amplitude(Decibels.linear(dB)) - dB) < 1e-9, "\(dB) dB")
        }
        #expect(Decibels.power(0) == -.infinity)
        #expect(Decibels.clamped(Decibels.power(0)) == -200)
        #expect(Decibels.clamped(-3) == -3)
        for bad in [-1.0, .nan] {
            #expect(Decibels.power(bad).isNaN, "Decibels.power(\(bad))")
            #expect(Decibels.clamped(Decibels.power(bad)) == -200)
        }
    }
}
