public import ModemDSP

/// How one character sits on the wire, for drawing its bits and labelling its burst.
public struct CharacterLayout: Sendable, Equatable, Codable {
    public enum Line: Sendable, Equatable, Codable {
        /// Two tones; mark is 1.
        case fsk(mark: Double, space: Double)
        /// HiJack's Manchester line.
        case manchester(inverted: Bool)
    }

    public var line: Line
    public var baud: Double
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
    public var end: Int64
    public var mark: Float
    public var space: Float
    public var isMark: Bool
}

/// One burst as the report lists it: its summary, its first characters as text, and how
/// it was decoded.
public struct BurstRow: Sendable, Codable {
    public var index: Int
    public var summary: BurstTracker.Summary
    public var preview: [UInt8] = []
    public var layout: String
}

/// What the report shows of a burst in detail: its waveform, its characters with their
/// bits, and (HiJack) the traces of its bit cells for an eye picture. Capped at
/// ``RecordingAnalyzer/maxCharactersPerBurst`` characters.
public struct BurstDetail: Sendable, Codable {
    public var index: Int
    public var layout: CharacterLayout
    /// First sample shown.
    public var start: Int64
    /// Sample just after the last one shown.
    public var end: Int64
    public var waveform: Envelope
    public var events: [ModemEvent] = []
    public var bits: [BitEnergy] = []
    /// Eye traces: ``traceLength`` samples each, two bit cells from half a cell before a
    /// cell's start.
    public var traces: [Float] = []
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
