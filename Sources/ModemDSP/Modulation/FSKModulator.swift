import RealModule

/// A phase-continuous binary FSK tone generator.
///
/// Each bit lasts `sampleRate / baud` samples on average; when that is not a whole number
/// (48 kHz at 1225 baud is 39.18 samples) bit lengths alternate so the long-run bit rate is
/// exact. The phase never jumps: a bit starts where the previous one ended, as SoftModem
/// boards and the phone apps do, which keeps the spectrum narrow.
///
/// Samples are `amplitude * sin(phase)`. The inner loop is a plain multiply-add over
/// precomputed per-tone tables and the phase advances by a precomputed rotation per bit
/// (no `sin`/`cos` after setup), so it vectorises and never allocates.
public struct FSKModulator: Sendable {
    /// The tones and bit rate generated (checked against the sample rate at creation).
    public let profile: ModemProfile
    /// Output samples per second, in Hz.
    public let sampleRate: Double
    /// Peak amplitude, linear, in 0...1.
    public let amplitude: Float
    /// Average samples per bit (not necessarily an integer).
    public let samplesPerBit: Double
    /// The most samples one bit can produce; size buffers with this.
    public let maxSamplesPerBit: Int

    // cos(w n) and sin(w n) for n < maxSamplesPerBit, per tone.
    private var markCos: [Float]
    private var markSin: [Float]
    private var spaceCos: [Float]
    private var spaceSin: [Float]
    // The phase as a unit phasor (sin, cos), advanced once per bit by a precomputed
    // rotation: sin/cos per bit cost more than the samples themselves.
    private var phaseSin = 0.0
    private var phaseCos = 1.0
    // Bits last `shortBit` or `shortBit + 1` samples; rotations by w * n for both lengths.
    private let shortBit: Int
    private let markTurn: (short: (c: Double, s: Double), long: (c: Double, s: Double))
    private let spaceTurn: (short: (c: Double, s: Double), long: (c: Double, s: Double))
    private var fraction: Double = 0

    /// Creates a modulator; throws when the profile cannot be used at `sampleRate` or the
    /// amplitude is not in 0...1 (NaN included).
    public init(profile: ModemProfile, sampleRate: Double, amplitude: Float = 1) throws(ModemConfigurationError) {
        try profile.validate(sampleRate: sampleRate)
        guard amplitude.isFinite, amplitude >= 0, amplitude <= 1 else {
            throw .invalidLinearAmplitude(Double(amplitude))
        }
        self.profile = profile
        self.sampleRate = sampleRate
        self.amplitude = amplitude
        samplesPerBit = sampleRate / profile.baud
        let length = Int(samplesPerBit.rounded(.up)) + 1
        maxSamplesPerBit = length
        let wm = 2 * Double.pi * profile.mark / sampleRate
        let ws = 2 * Double.pi * profile.space / sampleRate
        func table(_ step: Double, _ f: (Double) -> Double) -> [Float] {
            (0..<length).map { Float(f(step * Double($0))) }
        }
        let n = Int(samplesPerBit)
        shortBit = n
        markTurn = (
            (Double.cos(wm * Double(n)), Double.sin(wm * Double(n))),
            (Double.cos(wm * Double(n + 1)), Double.sin(wm * Double(n + 1)))
        )
        spaceTurn = (
            (Double.cos(ws * Double(n)), Double.sin(ws * Double(n))),
            (Double.cos(ws * Double(n + 1)), Double.sin(ws * Double(n + 1)))
        )
        markCos = table(wm, _cos)
        markSin = table(wm, _sin)
        spaceCos = table(ws, _cos)
        spaceSin = table(ws, _sin)
    }

    /// The number of samples the next `bits` bits will produce, at most.
    public func maxSamples(forBits bits: Int) -> Int { bits * maxSamplesPerBit }

    /// Writes one bit (mark when `mark` is true) to `output` and returns how many samples
    /// it wrote. `output` must hold at least ``maxSamplesPerBit`` samples.
    @inlinable
    public mutating func render(bit mark: Bool, into output: UnsafeMutablePointer<Float>) -> Int {
        renderBit(mark, output)
    }

    /// Writes the low `count` bits of `bits` (bit 0 first; 1 = mark) and returns the number
    /// of samples written. `output` must hold ``maxSamples(forBits:)`` samples.
    public mutating func render(bits: UInt32, count: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        var written = 0
        var pattern = bits
        for _ in 0..<count {
            written += renderBit(pattern & 1 == 1, output + written)
            pattern >>= 1
        }
        return written
    }

    @usableFromInline
    mutating func renderBit(_ mark: Bool, _ output: UnsafeMutablePointer<Float>) -> Int {
        let total = fraction + samplesPerBit
        let count = Int(total)
        fraction = total - Double(count)
        let a = Double(amplitude)
        // sin(p + w n) = sin p cos(w n) + cos p sin(w n)
        let s = Float(a * phaseSin)
        let c = Float(a * phaseCos)
        let turns = mark ? markTurn : spaceTurn
        if mark {
            Self.mix(s, c, markCos, markSin, output, count)
        } else {
            Self.mix(s, c, spaceCos, spaceSin, output, count)
        }
        // count is shortBit or shortBit + 1 because 0 <= fraction < 1.
        let t = count == shortBit ? turns.short : turns.long
        let ns = phaseSin * t.c + phaseCos * t.s
        let nc = phaseCos * t.c - phaseSin * t.s
        let g = 1.5 - 0.5 * (ns * ns + nc * nc)  // keeps the phasor on the unit circle
        phaseSin = ns * g
        phaseCos = nc * g
        return count
    }

    @inline(__always)
    private static func mix(
        _ s: Float, _ c: Float, _ cosTable: [Float], _ sinTable: [Float],
        _ output: UnsafeMutablePointer<Float>, _ count: Int
    ) {
        cosTable.withUnsafeBufferPointer { ct in
            sinTable.withUnsafeBufferPointer { st in
                for n in 0..<count { output[n] = s * ct[n] + c * st[n] }
            }
        }
    }
}
