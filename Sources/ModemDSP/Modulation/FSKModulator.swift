/// A phase-continuous binary FSK tone generator.
///
/// Each bit lasts `sampleRate / baud` samples on average; when that is not a whole number
/// (48 kHz at 1225 baud is 39.18 samples) bit lengths alternate so the long-run bit rate is
/// exact. The phase never jumps: a bit starts where the previous one ended, as SoftModem
/// boards and the phone apps do, which keeps the spectrum narrow.
///
/// Samples are `amplitude * sin(phase)`. The inner loop is a plain multiply-add over
/// precomputed per-tone tables (one `sin`/`cos` pair per bit, none per sample), so it
/// vectorises and never allocates.
public struct FSKModulator: Sendable {
    public let profile: ModemProfile
    public let sampleRate: Double
    /// Peak amplitude, linear, in 0...1.
    public let amplitude: Float
    /// Average samples per bit (not necessarily an integer).
    public let samplesPerBit: Double
    /// The most samples one bit can produce; size buffers with this.
    public let maxSamplesPerBit: Int

    private let markStep: Double
    private let spaceStep: Double
    // cos(w n) and sin(w n) for n < maxSamplesPerBit, per tone.
    private var markCos: [Float]
    private var markSin: [Float]
    private var spaceCos: [Float]
    private var spaceSin: [Float]
    private var phase: Double = 0
    private var fraction: Double = 0

    /// Creates a modulator; throws when the profile cannot be used at `sampleRate` or the
    /// amplitude is not in 0...1 (NaN included).
    public init(profile: ModemProfile, sampleRate: Double, amplitude: Float = 1) throws(ModemConfigurationError) {
        try profile.validate(sampleRate: sampleRate)
        guard amplitude.isFinite, amplitude >= 0, amplitude <= 1 else {
            throw .invalidAmplitude(Double(amplitude))
        }
        self.profile = profile
        self.sampleRate = sampleRate
        self.amplitude = amplitude
        samplesPerBit = sampleRate / profile.baud
        let length = Int(samplesPerBit.rounded(.up)) + 1
        maxSamplesPerBit = length
        let wm = 2 * Double.pi * profile.mark / sampleRate
        let ws = 2 * Double.pi * profile.space / sampleRate
        markStep = wm
        spaceStep = ws
        func table(_ step: Double, _ f: (Double) -> Double) -> [Float] {
            (0..<length).map { Float(f(step * Double($0))) }
        }
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
        let s = Float(a * _sin(phase))
        let c = Float(a * _cos(phase))
        if mark {
            Self.mix(s, c, markCos, markSin, output, count)
            phase += markStep * Double(count)
        } else {
            Self.mix(s, c, spaceCos, spaceSin, output, count)
            phase += spaceStep * Double(count)
        }
        if phase > 2 * Double.pi { phase = phase.truncatingRemainder(dividingBy: 2 * Double.pi) }
        return count
    }

    @inline(__always)
    private static func mix(_ s: Float, _ c: Float, _ cosTable: [Float], _ sinTable: [Float],
                            _ output: UnsafeMutablePointer<Float>, _ count: Int) {
        cosTable.withUnsafeBufferPointer { ct in
            sinTable.withUnsafeBufferPointer { st in
                for n in 0..<count { output[n] = s * ct[n] + c * st[n] }
            }
        }
    }
}
