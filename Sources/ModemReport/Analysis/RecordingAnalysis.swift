public import ModemDSP

/// Everything the report shows about one recording, made by ``RecordingAnalyzer/finish()``.
/// Its size is bounded whatever the length of the recording.
public struct RecordingAnalysis: Sendable, Codable {
    /// The input's name, the heading of its section in the report.
    public var name: String
    /// Sample rate of the decoded channel in Hz.
    public var sampleRate: Double
    /// Frames of input analysed (samples of the decoded channel).
    public var frames: Int64
    /// E.g. "WAV 16-bit, 1 channel"; the channel decoded when there were several.
    public var format: String
    /// The modem asked for ("softmodem-1225", "hijack", "auto").
    public var modem: String
    /// The profile's tones, when one was named (FSK).
    public var nominalTones: NominalTones?
    /// The modem's nominal bit rate (for auto, a placeholder).
    public var nominalBaud: Double
    /// The envelope of the whole recording, for its overview picture.
    public var overview: Envelope
    /// ``overview``'s buckets with its last, partly filled one.
    public var overviewBuckets: [Envelope.Bucket]
    /// Spectrogram columns (mean power per bin), bin width and column length.
    @PackedColumns public var spectrogram: [[Float]]
    public var binHz: Double
    /// Seconds of input per spectrogram column.
    public var columnSeconds: Double
    /// Mean power per bin over the whole input.
    public var averageSpectrum: [Double]
    /// What the signal survey says the input holds (silence, no modem tones, a modem...).
    public var diagnosis: Diagnosis
    /// Largest sample magnitude, in full-scale units.
    public var peak: Float
    /// Fraction of samples clipped (``SignalSurvey/clippedSamples``: flat tops at full scale,
    /// or beyond it); 0 for an empty input.
    public var clippedFraction: Double
    /// Mean power of the whole input (a full-scale sine reads 0.5).
    public var meanPower: Double
    /// Mean sample value in full-scale units (non-finite samples as 0); 0 for an empty input.
    public var dcOffset: Double
    /// One row per burst, the first ``RecordingAnalyzer/maxRows`` of them.
    public var rows: [BurstRow]
    /// Bursts beyond ``RecordingAnalyzer/maxRows``, counted only.
    public var rowsOmitted: Int
    /// The first ``RecordingAnalyzer/maxDetails`` bursts in detail.
    public var details: [BurstDetail]
    /// Bytes decoded in the whole input (``text`` keeps only the first of them).
    public var bytes: Int
    /// Framing errors in the whole input.
    public var framingErrors: Int
    /// Parity errors in the whole input.
    public var parityErrors: Int
    /// The decoded bytes (the first ``RecordingAnalyzer/maxText`` of them).
    public var text: [UInt8]
    /// What was detected per burst with `--profile auto` (the first ``RecordingAnalyzer/maxRows``).
    public var detections: [String]

    /// Seconds of input.
    public var duration: Double { Double(frames) / sampleRate }
}

/// A profile's mark and space tones, in hertz.
public struct NominalTones: Sendable, Equatable, Codable {
    /// The mark (1) tone in Hz.
    public var mark: Double
    /// The space (0) tone in Hz.
    public var space: Double

    /// The tones `mark` and `space`, in Hz.
    public init(mark: Double, space: Double) {
        self.mark = mark
        self.space = space
    }
}
