import CSndFile
#if canImport(Glibc)
import Glibc
#endif

/// Reads any sound file libsndfile understands (WAV PCM 8/16/24/32-bit and float,
/// WAVE_FORMAT_EXTENSIBLE, AIFF, CAF, FLAC, OGG, ...) as float samples, from a path or
/// from a pipe (standard input).
///
/// Opening fails with a typed error for a missing file, an empty file, or bytes that are
/// not audio. A file whose header promises more data than it holds is read to its real
/// end, and ``truncation`` says so, so a caller can decode what is there and then report it.
public final class SoundFileReader: SampleSource {
    public let name: String
    public let isStream: Bool
    public let sampleRate: Double
    public let channels: Int
    /// Frames promised by the header (or -1 when unknown, as on a pipe).
    public let frames: Int64
    /// libsndfile's description of the container and encoding, e.g. "WAV, PCM 16-bit".
    public let formatDescription: String
    private var file: OpaquePointer?
    private var framesRead: Int64 = 0
    private let promisedFrames: Int64?
    /// 16-bit PCM, the commonest recording format, is read as integers and converted here:
    /// libsndfile's own conversion runs one sample at a time, and this loop vectorises.
    private let isPCM16: Bool
    private var shorts: UnsafeMutablePointer<Int16>?
    private var shortCapacity = 0

    /// Opens `path`; `"-"` reads standard input.
    public init(path: String) throws(AudioIOError) {
        name = path == "-" ? "stdin" : path
        isStream = path == "-"
        var info = SF_INFO()
        let handle: OpaquePointer?
        if path == "-" {
            handle = sf_open_fd(0, Int32(SFM_READ), &info, 0)  // sf_open_fd(3): stdin stays open
        } else {
            var st = stat()
            if stat(path, &st) != 0 {
                throw .cannotOpen(path: path, reason: POSIXFile.errorText(errno))
            }
            if (st.st_mode & S_IFMT) == S_IFDIR { throw .cannotOpen(path: path, reason: "is a directory") }
            if st.st_size == 0 { throw .empty(path: path) }
            handle = sf_open(path, Int32(SFM_READ), &info)  // sf_open(3)
        }
        guard let handle else {
            let code = sf_error(nil)
            let text = String(cString: sf_strerror(nil))
            if code == Int32(SF_ERR_SYSTEM) {
                throw .cannotOpen(path: name, reason: text.replacingPrefix("System error : ", ""))
            }
            if path == "-" && text.contains("not recognised") {
                throw .unsupportedFormat(path: name, reason: "no audio header (for headerless audio use --raw)")
            }
            throw .unsupportedFormat(path: name, reason: text)
        }
        file = handle
        sampleRate = Double(info.samplerate)
        channels = Int(info.channels)
        frames = path == "-" ? -1 : Int64(info.frames)
        formatDescription = Self.describe(handle, info.format)
        isPCM16 = info.format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16)
        promisedFrames = Self.promisedFrames(handle, info)
        guard channels > 0, sampleRate > 0 else {
            sf_close(handle)
            file = nil
            throw .unsupportedFormat(path: name, reason: "header declares \(channels) channels at \(Int(sampleRate)) Hz")
        }
    }

    deinit {
        if let file { sf_close(file) }
        shorts?.deallocate()
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioIOError) -> Int {
        guard let file, let base = buffer.baseAddress else { return 0 }
        let want = buffer.count / channels
        guard want > 0 else { return 0 }
        let n: sf_count_t
        if isPCM16 {
            let samples = want * channels
            if shortCapacity < samples {
                shorts?.deallocate()
                shorts = .allocate(capacity: samples)
                shortCapacity = samples
            }
            let p = shorts!
            n = sf_readf_short(file, p, sf_count_t(want))  // sf_readf_short(3)
            // The same scaling libsndfile applies for float reads (1/0x8000), exact in Float.
            for i in 0..<max(0, Int(n) * channels) { base[i] = Float(p[i]) * (1.0 / 32768) }
        } else {
            n = sf_readf_float(file, base, sf_count_t(want))  // sf_readf_float(3)
        }
        if n < 0 || (n == 0 && sf_error(file) != 0) {
            throw .readFailed(path: name, reason: String(cString: sf_strerror(file)))
        }
        framesRead += Int64(n)
        return Int(n)
    }

    /// After the last read: the truncation error if the header promised more frames than
    /// the file held, nil otherwise.
    public var truncation: AudioIOError? {
        guard let promised = promisedFrames, promised > framesRead else { return nil }
        return .truncated(path: name, expectedFrames: promised, foundFrames: framesRead)
    }

    /// libsndfile clamps the frame count of a short file silently but logs the data chunk
    /// size the header declared ("data : 80726 (should be 19956)"); recover it from there.
    private static func promisedFrames(_ handle: OpaquePointer, _ info: SF_INFO) -> Int64? {
        var log = [CChar](repeating: 0, count: 16384)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))  // sf_command(3)
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") where line.contains("should be") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("data") || trimmed.hasPrefix("SSND") else { continue }
            let digits = trimmed.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
            guard digits.count >= 2, digits[0] > digits[1], info.frames > 0, digits[1] > 0 else { continue }
            let bytesPerFrame = Double(digits[1]) / Double(info.frames)
            return Int64((Double(digits[0]) / bytesPerFrame).rounded(.down))
        }
        return nil
    }

    private static func describe(_ handle: OpaquePointer, _ format: Int32) -> String {
        func name(_ command: Int32, _ value: Int32) -> String {
            var f = SF_FORMAT_INFO()
            f.format = value
            guard sf_command(handle, command, &f, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let n = f.name else { return "?" }
            return String(cString: n)
        }
        let major = name(Int32(SFC_GET_FORMAT_INFO), format & Int32(SF_FORMAT_TYPEMASK))
        let sub = name(Int32(SFC_GET_FORMAT_INFO), format & Int32(SF_FORMAT_SUBMASK))
        return "\(major), \(sub)"
    }
}

extension String {
    func replacingPrefix(_ prefix: String, _ with: String) -> String {
        hasPrefix(prefix) ? with + dropFirst(prefix.count) : self
    }
}
