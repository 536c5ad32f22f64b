/// One character the demodulator found, or one it had to reject.
///
/// Times are sample indices counted from the first sample given to the demodulator.
/// Levels are mean powers relative to full scale (a full-scale sine is 0.5, -3 dBFS).
public struct DemodulatorEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A character with a valid start bit, stop bit(s) and parity.
        case byte
        /// Start bit and signal were good but a stop bit was a space: the character is dropped.
        case framingError
        /// The parity bit disagreed: the character is dropped.
        case parityError
    }

    public var kind: Kind
    /// The character (data bits only); for errors, what the data bits read as.
    public var value: UInt8
    /// First sample of the start bit.
    public var startSample: Int64
    /// Sample just after the last stop bit.
    public var endSample: Int64
    /// How many samples the demodulator had been given when it could decide this character
    /// (at least ``endSample``): its look-ahead is `decidedAt - endSample`, the same for any
    /// chunking of the input. Live, what a sound device holds back comes on top.
    public var decidedAt: Int64
    /// Mean power of the tone component over the character (linear, full scale sine = 0.5).
    public var signalPower: Double
    /// Mean power of everything else over the character (noise, harmonics, hum).
    public var noisePower: Double
    /// Estimated Eb/N0 of the character, as a power ratio (linear).
    public var ebN0Ratio: Double
    /// Estimated Eb/N0 of the character, in dB (from ``ebN0Ratio`` when read: decoding
    /// itself never needs the logarithm).
    public var ebN0: Double { decibels(power: ebN0Ratio) }
    /// Measured mark frequency in Hz, or NaN when the character had no mark bit.
    public var markFrequency: Double
    /// Measured space frequency in Hz (the start bit always provides one).
    public var spaceFrequency: Double
}
