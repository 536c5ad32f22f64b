/// The envelope and spectrogram of a capture held in memory (the loopback test's), through
/// the same ``RecordingAnalyzer`` as `inspect` but without a receiver: no bursts are found,
/// only the overview, the spectrogram and the level statistics.
public enum CaptureOverview {
    /// Analyses `samples` (mono); the spectrogram spans the whole band up to half the rate.
    public static func analyse(name: String, samples: [Float], sampleRate: Double) -> RecordingAnalysis {
        // Baud and gap only matter to the burst tracker, which gets no events here.
        let analyzer = RecordingAnalyzer(
            name: name, sampleRate: sampleRate, frames: Int64(samples.count), format: "capture in memory",
            modem: "none", nominalTones: nil, baud: 1_200, gapBits: 10, maxFrequency: sampleRate / 2)
        samples.withUnsafeBufferPointer { analyzer.process($0) }
        return analyzer.finish()
    }
}
