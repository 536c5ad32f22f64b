/// A stream of interleaved float samples (full scale = +-1) with a known rate and
/// channel count: a sound file, headerless PCM, or a live capture.
public protocol SampleSource {
    var sampleRate: Double { get }
    var channels: Int { get }
    /// A name for messages: the path, or "stdin".
    var name: String { get }
    /// True when reads may wait for data that is still being produced (standard input, a
    /// pipe): callers then read in small pieces so their output keeps up with the input.
    /// False for files, which are read in large pieces (fewer system calls).
    var isStream: Bool { get }
    /// Reads up to `buffer.count / channels` frames into `buffer` and returns the number of
    /// frames read; 0 means end of stream. Throws ``AudioIOError`` on failure.
    mutating func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioIOError) -> Int
}
