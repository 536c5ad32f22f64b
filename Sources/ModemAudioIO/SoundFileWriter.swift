import CSndFile

/// Writes a sound file through libsndfile, the container chosen by the file name's
/// extension: .wav (16-bit PCM), .flac, .ogg (Vorbis), .aiff/.aif, .caf, .au.
public final class SoundFileWriter {
    /// The path being written, for error messages.
    public let name: String
    private var file: OpaquePointer?

    /// The extensions ``init(path:sampleRate:channels:)`` understands.
    public static let extensions = ["wav", "flac", "ogg", "aiff", "aif", "caf", "au"]

    /// Creates `path` in the format its extension names (one of ``extensions``). Throws for an
    /// unknown extension, a rate or channel count the format cannot hold, or a file that cannot
    /// be created.
    public init(path: String, sampleRate: Int, channels: Int) throws(AudioIOError) {
        name = path
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let format: Int32
        switch ext {
        case "wav": format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case "flac": format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case "ogg": format = Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        case "aiff", "aif": format = Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)
        case "caf": format = Int32(SF_FORMAT_CAF | SF_FORMAT_PCM_16)
        case "au": format = Int32(SF_FORMAT_AU | SF_FORMAT_PCM_16)
        default:
            throw .invalidParameters(
                "cannot tell the audio format of '\(path)' from its extension; use one of: \(Self.extensions.joined(separator: ", "))"
            )
        }
        var info = SF_INFO(
            frames: 0, samplerate: Int32(sampleRate), channels: Int32(channels), format: format, sections: 0,
            seekable: 0)
        guard sf_format_check(&info) != 0 else {  // sf_format_check(3)
            throw .invalidParameters("\(ext) cannot hold \(channels) channels at \(sampleRate) Hz")
        }
        guard let f = sf_open(path, Int32(SFM_WRITE), &info) else {  // sf_open(3)
            throw .cannotOpen(
                path: path, reason: String(cString: sf_strerror(nil)).replacingPrefix("System error : ", ""))
        }
        file = f
        // Clip rather than wrap when a float exceeds full scale.
        sf_command(f, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
    }

    deinit { if let file { sf_close(file) } }

    /// Appends `samples.count / channels` interleaved frames (a trailing partial frame is
    /// ignored); integer formats clip floats beyond +-1. Does nothing after ``finish()``.
    public func write(_ samples: UnsafeBufferPointer<Float>, channels: Int) throws(AudioIOError) {
        guard let file, let base = samples.baseAddress, !samples.isEmpty else { return }
        let frames = sf_count_t(samples.count / channels)
        if sf_writef_float(file, base, frames) != frames {  // sf_writef_float(3)
            throw .writeFailed(path: name, reason: String(cString: sf_strerror(file)))
        }
    }

    /// Closes the file, writing its final header.
    public func finish() throws(AudioIOError) {
        guard let f = file else { return }
        file = nil
        if sf_close(f) != 0 { throw .writeFailed(path: name, reason: "sf_close failed") }
    }
}
