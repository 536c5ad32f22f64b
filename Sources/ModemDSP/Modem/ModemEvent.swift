/// One character a receiver decoded, or one it had to reject: the same type for every modem.
///
/// Times are sample indices counted from the first sample given to the receiver (a reset
/// keeps counting). Levels are mean powers relative to full scale (a full-scale sine is
/// 0.5, -3 dBFS).
public struct ModemEvent: Sendable, Equatable, Codable {
    /// Whether a character was decoded, or why it was dropped.
    public enum Kind: Sendable, Equatable, Codable {
        /// A character with a valid start bit, stop bit(s) and parity.
        case byte
        /// Start bit and signal were good but a stop bit was wrong (or the bit clock was
        /// lost inside the character): the character is dropped.
        case framingError
        /// The parity bit disagreed: the character is dropped.
        case parityError
    }

    /// What only one kind of modem measures about a character.
    public enum Metrics: Sendable, Equatable, Codable {
        case fsk(FSKCharacterMetrics)
        case hijack(HiJackFrameMetrics)
    }

    /// This character's outcome: decoded, or why it was dropped.
    public var kind: Kind
    /// The character (data bits only); for errors, what the data bits read as.
    public var value: UInt8
    /// First sample of the start bit.
    public var startSample: Int64
    /// Sample just after the last bit that decides the character (the last stop bit for
    /// FSK, the parity bit for HiJack, whose stop bit is idle line).
    public var endSample: Int64
    /// How many samples the receiver had been given when it could decide this character
    /// (at least ``endSample``): its look-ahead is `decidedAt - endSample`, the same for any
    /// chunking of the input. Live, what a sound device holds back comes on top.
    public var decidedAt: Int64
    /// What the modem measured about the character (FSK or HiJack).
    public var metrics: Metrics

    /// An event from all its fields, as receivers (and tests) make them.
    public init(kind: Kind, value: UInt8, startSample: Int64, endSample: Int64, decidedAt: Int64, metrics: Metrics) {
        self.kind = kind
        self.value = value
        self.startSample = startSample
        self.endSample = endSample
        self.decidedAt = decidedAt
        self.metrics = metrics
    }

    /// A character known lost, not measured: a framing error over the samples from
    /// `start` to `end` (``FSKCharacterMetrics/unmeasured``), decided at `decidedAt`.
    static func lost(from start: Int64, to end: Int64, decidedAt: Int64) -> ModemEvent {
        ModemEvent(
            kind: .framingError, value: 0, startSample: start, endSample: end, decidedAt: decidedAt,
            metrics: .fsk(.unmeasured))
    }

    /// The FSK measurements, nil for other modems.
    public var fsk: FSKCharacterMetrics? {
        if case .fsk(let m) = metrics { return m }
        return nil
    }

    /// The HiJack measurements, nil for other modems.
    public var hijack: HiJackFrameMetrics? {
        if case .hijack(let m) = metrics { return m }
        return nil
    }

    /// Mean power of the character's signal (linear, full-scale sine = 0.5), when the modem
    /// measures it (FSK); nil otherwise. Channel choice ranks equal byte counts by it.
    public var signalPower: Double? { fsk?.signalPower }
}

/// What the FSK demodulator measured over one character.
public struct FSKCharacterMetrics: Sendable, Equatable, Codable {
    /// Mean power of the tone component over the character (linear, full scale sine = 0.5).
    public var signalPower: Double
    /// Mean power of everything else over the character (noise, harmonics, hum).
    public var noisePower: Double
    /// Estimated Eb/N0 of the character, as a power ratio (linear).
    public var ebN0Ratio: Double
    /// Measured mark frequency in Hz, or NaN when the character had no mark bit.
    public var markFrequency: Double
    /// Measured space frequency in Hz (the start bit always provides one).
    public var spaceFrequency: Double

    /// Metrics from all their values.
    public init(
        signalPower: Double, noisePower: Double, ebN0Ratio: Double, markFrequency: Double, spaceFrequency: Double
    ) {
        self.signalPower = signalPower
        self.noisePower = noisePower
        self.ebN0Ratio = ebN0Ratio
        self.markFrequency = markFrequency
        self.spaceFrequency = spaceFrequency
    }

    /// Estimated Eb/N0 of the character, in dB (from ``ebN0Ratio`` when read: decoding
    /// itself never needs the logarithm).
    public var ebN0: Double { Decibels.power(ebN0Ratio) }

    /// The metrics of a character reported lost without being measured: no signal, no
    /// noise, no tones (Eb/N0 0, both frequencies NaN). Level averages skip it.
    public static let unmeasured = FSKCharacterMetrics(
        signalPower: 0, noisePower: 0, ebN0Ratio: 0, markFrequency: .nan, spaceFrequency: .nan)
}

/// What the HiJack decoder measured over one frame.
public struct HiJackFrameMetrics: Sendable, Equatable, Codable {
    /// The bit rate measured over the frame.
    public var baud: Double
    /// True when the line was inverted (start bit seen as a rising mid-cell transition).
    public var inverted: Bool
}
