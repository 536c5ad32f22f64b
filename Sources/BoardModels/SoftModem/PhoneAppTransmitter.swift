public import ModemDSP

/// The SoftModem iPhone app's transmitter (PROTOCOLS.md 1.1, 1.3, 1.4).
///
/// A full-scale, phase-continuous sine at the app's rounded tones (mark 7300 Hz, space
/// 4900 Hz at 1225 baud), 50 mark bits before each burst and 7 after, exact zeros between
/// bursts while the audio stream keeps running, quantised to 16 bits as the app's output
/// buffer is. Output is appended to the caller's array; state carries over between calls.
public struct PhoneAppTransmitter: Sendable {
    /// The tones the app really sends for the 1225-baud profile.
    public static let appProfile = ModemProfile(name: "iphone-app-1225", baud: 1225, mark: 7300, space: 4900)

    private var encoder: BurstEncoder
    private var scratch: [Float] = []

    /// An app transmitter at `sampleRate` (the app uses 44.1 kHz) with peak `amplitude`
    /// (1 = full scale, the app's setting).
    public init(
        profile: ModemProfile = PhoneAppTransmitter.appProfile, sampleRate: Double = 44_100,
        amplitude: Float = 1
    ) throws(ModemConfigurationError) {
        let modulator = try FSKModulator(profile: profile, sampleRate: sampleRate, amplitude: amplitude)
        encoder = BurstEncoder(modulator: modulator, preambleBits: 50, postambleBits: 7)
    }

    /// One burst: preamble, `bytes` back to back, postamble.
    public mutating func send(_ bytes: [UInt8], into output: inout [Float]) {
        scratch = encoder.burst(bytes)
        for x in scratch { output.append(Self.quantise(x)) }
    }

    /// `samples` zero samples (the stream keeps running between bursts).
    public func silence(samples: Int, into output: inout [Float]) {
        output.append(contentsOf: repeatElement(0, count: max(0, samples)))
    }

    /// Rounds to the nearest 16-bit level, as the app's Int16 buffers do.
    @inlinable
    public static func quantise(_ x: Float) -> Float {
        let clamped = min(max(x, -1), 32767.0 / 32768.0)
        return (clamped * 32768).rounded() / 32768
    }
}
