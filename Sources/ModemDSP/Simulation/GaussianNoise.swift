import RealModule

/// A small, fast, seedable pseudo-random generator (xoshiro256**), so tests and
/// measurements are repeatable on every machine.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose whole sequence is fixed by `seed` (any value, 0 included).
    public init(seed: UInt64) {
        // SplitMix64 spreads any seed (0 included) over the whole state.
        var z = seed
        func next() -> UInt64 {
            z &+= 0x9E37_79B9_7F4A_7C15
            var x = z
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            return x ^ (x >> 31)
        }
        s = (next(), next(), next(), next())
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = ((s.1 &* 5) << 7 | (s.1 &* 5) >> 57) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = s.3 << 45 | s.3 >> 19
        return result
    }

    /// A uniform double in [0, 1).
    @inlinable
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}

/// White Gaussian noise of a given standard deviation (Marsaglia's polar method).
public struct GaussianNoise: Sendable {
    /// Standard deviation of the samples (full scale 1); a change applies from the next sample.
    public var standardDeviation: Double
    private var generator: SeededGenerator
    private var spare: Double?

    /// Noise of `standardDeviation` whose sequence is fixed by `seed`.
    public init(standardDeviation: Double, seed: UInt64) {
        self.standardDeviation = standardDeviation
        generator = SeededGenerator(seed: seed)
    }

    /// The next sample.
    public mutating func next() -> Double {
        if let s = spare {
            spare = nil
            return s * standardDeviation
        }
        while true {
            let u = 2 * generator.nextUnit() - 1
            let v = 2 * generator.nextUnit() - 1
            let q = u * u + v * v
            if q > 0 && q < 1 {
                let f = (-2 * Double.log(q) / q).squareRoot()
                spare = v * f
                return u * f * standardDeviation
            }
        }
    }

    /// Adds noise to every sample of `samples`.
    public mutating func add(to samples: UnsafeMutableBufferPointer<Float>) {
        for i in samples.indices { samples[i] += Float(next()) }
    }

    /// Adds noise to every sample of `samples`.
    public mutating func add(to samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { add(to: $0) }
    }
}
