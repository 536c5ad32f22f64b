/// Where a mono signal goes in an output file: its only channel, the left or the right of
/// two (the other silent), or both.
public enum ChannelLayout: String, CaseIterable, Sendable {
    case mono, left, right, both
    /// Channels in the file: 1 for mono, else 2.
    public var channelCount: Int { self == .mono ? 1 : 2 }
}

/// Writes mono samples to an audio file or stdout (`-`), laid out on the requested channels.
///
/// `-` and `.wav` paths are written as a streaming WAV (``WAVStreamWriter``: a pipe needs no
/// seek), 16-bit or 32-bit float; any other extension goes through libsndfile
/// (``SoundFileWriter``), which picks the format from it.
public struct AudioSink {
    private enum Backend {
        case stream(WAVStreamWriter)
        case file(SoundFileWriter)
    }
    private let backend: Backend
    private let layout: ChannelLayout
    private var interleaved: [Float] = []

    /// Creates (or empties) `path` for `sampleRate` frames a second; `float` asks for 32-bit
    /// float samples in a WAV.
    public init(path: String, sampleRate: Int, layout: ChannelLayout, float: Bool) throws(AudioIOError) {
        self.layout = layout
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if path == "-" || ext == "wav" {
            backend = .stream(
                try WAVStreamWriter(
                    path: path, sampleRate: sampleRate, channels: layout.channelCount,
                    encoding: float ? .float32 : .pcm16))
        } else {
            backend = .file(try SoundFileWriter(path: path, sampleRate: sampleRate, channels: layout.channelCount))
        }
    }

    /// Writes the first `count` samples of `samples`, copied to the layout's channels.
    public mutating func write(_ samples: [Float], count: Int) throws(AudioIOError) {
        guard count > 0 else { return }
        if layout == .mono {
            try samples.withUnsafeBufferPointer { b throws(AudioIOError) in
                try put(UnsafeBufferPointer(rebasing: b[0..<count]))
            }
            return
        }
        if interleaved.count < 2 * count { interleaved = [Float](repeating: 0, count: 2 * count) }
        for i in 0..<count {
            interleaved[2 * i] = layout == .right ? 0 : samples[i]
            interleaved[2 * i + 1] = layout == .left ? 0 : samples[i]
        }
        try interleaved.withUnsafeBufferPointer { b throws(AudioIOError) in
            try put(UnsafeBufferPointer(rebasing: b[0..<(2 * count)]))
        }
    }

    /// Writes interleaved frames as they are; the layout must have as many channels.
    public mutating func writeInterleaved(_ samples: UnsafeBufferPointer<Float>) throws(AudioIOError) {
        guard !samples.isEmpty else { return }
        try put(samples)
    }

    private func put(_ buffer: UnsafeBufferPointer<Float>) throws(AudioIOError) {
        switch backend {
        case .stream(let w): try w.write(buffer)
        case .file(let f): try f.write(buffer, channels: layout.channelCount)
        }
    }

    /// Completes the file (the WAV header's sizes, libsndfile's close).
    public func finish() throws(AudioIOError) {
        switch backend {
        case .stream(let w): try w.finish()
        case .file(let f): try f.finish()
        }
    }
}
