public import ModemDSP

/// Everything the report shows about one recording, made by ``RecordingAnalyzer/finish()``.
/// Its size is bounded whatever the length of the recording.
public struct RecordingAnalysis: Sendable, Codable {
    public var name: String
    public var sampleRate: Double
    public var frames: Int64
    /// E.g. "WAV 16-bit, 1 channel"; the channel decoded when there were several.
    public var format: String
    /// The modem asked for ("softmodem-1225", "hijack", "auto").
    public var modem: String
    /// The profile's tones, when one was named (FSK).
    public var nominalTones: NominalTones?
    /// The modem's nominal bit rate (for auto, a placeholder).
    public var nominalBaud: Double
    public var overview: Envelope
    /// ``overview``'s buckets with its last, partly filled one.
    public var overviewBuckets: [Envelope.Bucket]
    /// Spectrogram columns (mean power per bin), bin width and column length.
    @PackedColumns public var spectrogram: [[Float]]
    public var binHz: Double
    public var columnSeconds: Double
    /// Mean power per bin over the whole input.
    public var averageSpectrum: [Double]
    public var diagnosis: Diagnosis
    public var peak: Float
    public var clippedFraction: Double
    public var meanPower: Double
    public var dcOffset: Double
    public var rows: [BurstRow]
    /// Bursts beyond ``RecordingAnalyzer/maxRows``, counted only.
    public var rowsOmitted: Int
    public var details: [BurstDetail]
    public var bytes: Int
    public var framingErrors: Int
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
    public var mark: Double
    public var space: Double

    public init(mark: Double, space: Double) {
        self.mark = mark
        self.space = space
    }
}
