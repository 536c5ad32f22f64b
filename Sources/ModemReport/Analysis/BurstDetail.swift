public import ModemDSP

/// How one character sits on the wire, for drawing its bits and labelling its burst.
public struct CharacterLayout: Sendable, Equatable, Codable {
    /// The kind of line a character is sent on.
    public enum Line: Sendable, Equatable, Codable {
        /// Two tones; mark is 1.
        case fsk(mark: Double, space: Double)
        /// HiJack's Manchester line.
        case manchester(inverted: Bool)
    }

    /// The tones, or the Manchester line and its polarity.
    public var line: Line
    /// Bit rate in baud: the width of each bit cell.
    public var baud: Double
    /// Data bits, parity and stop bits of a character.
    public var format: FrameFormat
    /// What was detected or chosen, e.g. "webjack-1225, 8N1".
    public var label: String
    /// False when characters are bytes of a bit stream (HiJack lab11's packets): each is its
    /// `format`'s data bits alone, with no start, parity or stop bit around it.
    public var framed: Bool

    /// A layout; `framed` false for bytes of a bit stream (see ``framed``).
    public init(line: Line, baud: Double, format: FrameFormat, label: String, framed: Bool = true) {
        self.line = line
        self.baud = baud
        self.format = format
        self.label = label
        self.framed = framed
    }

    /// Bit cells from a character's first sample to the next character's: the whole frame,
    /// or the data bits of a bit-stream byte.
    public var bitCells: Int { framed ? format.bitsPerFrame : format.dataBits }

    /// Bit cells of a character that carry transitions worth an eye trace: up to the parity
    /// bit of a frame (the stop bit is idle line), every bit of a bit-stream byte.
    public var signalCells: Int { framed ? format.bitsPerFrame - 1 : format.dataBits }
}

/// One bit of a shown character: the mark and space tone amplitudes over its middle and
/// what the bit should be from the decoded character.
public struct BitEnergy: Sendable, Equatable, Codable {
    /// The middle of the bit that was measured (sample indices).
    public var start: Int64
    /// End of the measured middle, exclusive (sample index).
    public var end: Int64
    /// Mark tone amplitude over the measured middle (a sine of amplitude A reads about A).
    public var mark: Float
    /// Space tone amplitude over the measured middle.
    public var space: Float
    /// True when the decoded character makes this bit a mark (1).
    public var isMark: Bool
}

/// One burst as the report lists it: its summary, its first characters as text, and how
/// it was decoded.
public struct BurstRow: Sendable, Codable {
    /// The burst's number in the recording, from 0.
    public var index: Int
    /// The burst's span, counts, levels and measured tones.
    public var summary: BurstTracker.Summary
    /// The burst's first decoded bytes, at most 48.
    public var preview: [UInt8] = []
    /// How the burst was decoded, e.g. "webjack-1225, 8N1" (``CharacterLayout/label``).
    public var layout: String
}

/// What the report shows of a burst in detail: its waveform, its characters with their
/// bits, and (HiJack) the traces of its bit cells for an eye picture. Capped at
/// ``RecordingAnalyzer/maxCharactersPerBurst`` characters.
public struct BurstDetail: Sendable, Codable {
    /// The burst's number in the recording, from 0.
    public var index: Int
    /// How the burst's characters sit on the wire.
    public var layout: CharacterLayout
    /// First sample shown.
    public var start: Int64
    /// Sample just after the last one shown.
    public var end: Int64
    /// The envelope of the samples shown, from ``start``.
    public var waveform: Envelope
    /// The burst's characters, in order.
    public var events: [ModemEvent] = []
    /// FSK: each character's bits with their tone amplitudes; empty for HiJack.
    public var bits: [BitEnergy] = []
    /// Eye traces: ``traceLength`` samples each, two bit cells from half a cell before a
    /// cell's start.
    public var traces: [Float] = []
    /// Samples per eye trace (two bit cells); 0 for FSK.
    public var traceLength = 0
    /// Characters in the burst beyond those kept.
    public var omitted = 0

    /// Mean mark amplitude over mark bits and space amplitude over space bits (NaN if none):
    /// far apart, one tone is being cut (a notch) or filtered.
    public var toneBalance: (mark: Double, space: Double) {
        func mean(_ amplitudes: [Float]) -> Double {
            amplitudes.isEmpty ? .nan : amplitudes.reduce(0.0) { $0 + Double($1) } / Double(amplitudes.count)
        }
        return (mean(bits.filter(\.isMark).map(\.mark)), mean(bits.filter { !$0.isMark }.map(\.space)))
    }
}
