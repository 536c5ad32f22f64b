/// Why audio could not be read or written. Each case names the file (or "stdin"/"stdout")
/// and the reason, ready to print as one line.
public enum AudioIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be opened (errno text in `reason`).
    case cannotOpen(path: String, reason: String)
    /// The file is empty.
    case empty(path: String)
    /// The bytes are not audio in any format the reader knows.
    case unsupportedFormat(path: String, reason: String)
    /// No header any format has: perhaps raw samples, which need their format named.
    case noAudioHeader(path: String)
    /// The header promises more audio than the file holds.
    case truncated(path: String, expectedFrames: Int64, foundFrames: Int64)
    /// A read failed part way.
    case readFailed(path: String, reason: String)
    /// A write failed (disk full, closed pipe, ...).
    case writeFailed(path: String, reason: String)
    /// Options that make no sense for this input or output.
    case invalidParameters(String)

    /// What failed and on which file, as one line; ``invalidParameters(_:)`` prints its own text.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open \(path): \(reason)"
        case .empty(let path): return "\(path) is empty"
        case .unsupportedFormat(let path, let reason): return "\(path) is not a supported audio file: \(reason)"
        case .noAudioHeader(let path):
            return "\(path) is not a supported audio file: no audio header libsndfile recognises"
        case .truncated(let path, let expected, let found):
            return "\(path) is truncated: its header promises \(expected) frames but only \(found) are there"
        case .readFailed(let path, let reason): return "error reading \(path): \(reason)"
        case .writeFailed(let path, let reason): return "error writing \(path): \(reason)"
        case .invalidParameters(let why): return why
        }
    }
}
