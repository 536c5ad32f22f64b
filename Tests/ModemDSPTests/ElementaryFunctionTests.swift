import Foundation
import Testing

@testable import ModemDSP

/// The DSP core's own sine, cosine, arcTangent2 and natural logarithm against the C library,
/// over ordinary arguments and the special values.
struct ElementaryFunctionTests {
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

    @Test("sine and cosine are within 1e-12 of the C library up to 1000 rad")
    func sineAndCosine() {
        var worst = 0.0
        for x in Self.angles {
            worst = max(worst, abs(sine(x) - sin(x)), abs(cosine(x) - cos(x)))
        }
        #expect(worst < 1e-12, "worst error \(worst)")
        #expect(sine(0) == 0)
        #expect(abs(cosine(0) - 1) < 1e-13)
        #expect(abs(sine(Double.pi / 2) - 1) < 1e-13)
    }

    @Test("sine and cosine of NaN, infinities and huge arguments are NaN, not a trap")
    func sineSpecialValues() {
        for x in [
            Double.nan, .infinity, -.infinity, 0x1p40, -0x1p41, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        ] {
            #expect(sine(x).isNaN, "sine(\(x))")
            #expect(cosine(x).isNaN, "cosine(\(x))")
        }
        // Just below the limit it still answers, within the precision the argument has.
        #expect(abs(sine(0x1p39)) <= 1)
    }

    @Test("arcTangent2 is within 1e-9 of atan2 in every quadrant and on the axes")
    func arcTangent() {
        var worst = 0.0
        let values: [Double] = [0, 1e-300, 1e-9, 0.001, 0.3, 0.41421356237309503, 0.5, 1, 2.4, 7, 1e6, 1e300]
        for a in values {
            for b in values {
                for (y, x) in [(a, b), (-a, b), (a, -b), (-a, -b)] where !(x == 0 && y == 0) {
                    // Signed zeros are not distinguished: -0 is read as +0.
                    worst = max(worst, abs(arcTangent2(y, x) - atan2(y == 0 ? 0 : y, x)))
                }
            }
        }
        for x in Self.angles {
            worst = max(worst, abs(arcTangent2(sin(x), cos(x)) - atan2(sin(x), cos(x))))
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

    @Test("naturalLog and decibels match the C library; zero, negative and NaN are handled")
    func logarithm() {
        var worst = 0.0
        var x = 1e-300
        while x < 1e300 {
            worst = max(worst, abs(naturalLog(x) - log(x)))
            x *= 1.37
        }
        #expect(worst < 1e-10, "worst error \(worst)")
        #expect(abs(decibels(power: 100) - 20) < 1e-10)
        #expect(naturalLog(0) == -.infinity)
        #expect(decibels(power: 0) == -.infinity)
        for bad in [-1.0, .nan, .infinity, -.infinity] {
            #expect(naturalLog(bad).isNaN, "naturalLog(\(bad))")
            #expect(decibels(power: bad).isNaN, "decibels(\(bad))")
        }
    }
}
