import CSndFile
import ModemSystem
import SystemPackage

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
    /// The path, or "stdin" for `"-"`.
    public let name: String
    /// True for standard input (`"-"`), false for a file.
    public let isStream: Bool
    /// Frames per second from the header, in Hz (positive: opening rejects anything else).
    public let sampleRate: Double
    /// Interleaved channels per frame from the header (at least 1).
    public let channels: Int
    /// Frames promised by the header (or -1 when unknown, as on a pipe).
    public let frames: Int64
    /// libsndfile's description of the container and encoding, e.g. "WAV, PCM 16-bit".
    public let formatDescription: String
    private var file: OpaquePointer?
    private var framesRead: Int64 = 0
    private let promisedFrames: Int64?
    /// True for 16-bit PCM, the commonest recording format: ``readPCM16(into:)`` then reads
    /// the samples as they are stored. ``read(into:)`` converts them here rather than in
    /// libsndfile, whose conversion runs one sample at a time where this loop vectorises.
    public let isPCM16: Bool
    /// MPEG-coded audio: reads go through libmpg123, whose messages are kept off stderr.
    private let isMPEG: Bool
    /// The descriptor of an opened path (closed after `sf_close`); nil for stdin.
    private let descriptor: Int32?
    /// The 16-bit read buffer: `bufferBytes` bytes at `bufferPageOffset` into a
    /// page-aligned block.
    private var block: UnsafeMutableRawPointer?
    private var bufferBytes = 0
    /// Where the 16-bit read buffer starts within its page: half a page past the offset of
    /// the audio data in the file's pages. Why: the kernel copies page-cache pages into the
    /// buffer with `rep movsb`, which on AMD Zen runs about four times slower when the
    /// destination sits 1-31 bytes past the source modulo 4096 (4K aliasing: 35 ms against
    /// 8 ms for a 50 MB file on the machine these notes were written on). An ordinary heap
    /// buffer lands just there behind the canonical 44-byte WAV header (a Swift array's
    /// elements start 48 bytes into a large block).
    private let bufferPageOffset: Int

    /// Opens `path`; `"-"` reads standard input.
    public init(path: String) throws(AudioIOError) {
        name = path == "-" ? "stdin" : path
        isStream = path == "-"
        var info = SF_INFO()
        let handle: OpaquePointer?
        var header: [UInt8] = []
        if path == "-" {
            descriptor = nil
            // sf_open_fd(3) with close_desc 0: stdin stays open.
            handle = LibraryNoise.silenced { sf_open_fd(0, Int32(SFM_READ), &info, 0) }
        } else {
            let fd: FileDescriptor
            let st: Stat
            do {
                fd = try FileDescriptor.open(path)
            } catch {
                throw .cannotOpen(path: path, reason: error.description)
            }
            do {
                st = try fd.stat()  // fstat(2): the file opened, not the path again
            } catch {
                try? fd.close()
                throw .cannotOpen(path: path, reason: error.description)
            }
            if st.type == .directory {
                try? fd.close()
                throw .cannotOpen(path: path, reason: "is a directory")
            }
            if st.size == 0 {
                try? fd.close()
                throw .empty(path: path)
            }
            // The first bytes, to name what a file libsndfile rejects looks like
            // (pread(2) through swift-system: the offset stays at 0 for libsndfile).
            var first = [UInt8](repeating: 0, count: 4)
            let got = (try? first.withUnsafeMutableBytes { try fd.read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
            header = Array(first.prefix(got))
            // libsndfile reads through this descriptor but does not own it (close_desc 0).
            handle = LibraryNoise.silenced { sf_open_fd(fd.rawValue, Int32(SFM_READ), &info, 0) }  // sf_open_fd(3)
            if handle == nil {
                try? fd.close()
                descriptor = nil
            } else {
                descriptor = fd.rawValue
            }
        }
        // After the header, libsndfile has seeked to the first sample (unknown on a pipe).
        let dataOffset = Int(max(0, lseek(descriptor ?? 0, 0, SEEK_CUR)))  // lseek(2)
        bufferPageOffset = (dataOffset + 2048) % 4096 & ~15
        guard let handle else {
            let code = sf_error(nil)
            let text = String(cString: sf_strerror(nil))
            if code == Int32(SF_ERR_SYSTEM) {
                throw .cannotOpen(path: name, reason: text.replacingPrefix("System error : ", ""))
            }
            throw Self.openFailure(name, text, header: header)
        }
        file = handle
        sampleRate = Double(info.samplerate)
        channels = Int(info.channels)
        frames = path == "-" ? -1 : Int64(info.frames)
        formatDescription = Self.describe(handle, info.format)
        isPCM16 = info.format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16)
        let sub = info.format & Int32(SF_FORMAT_SUBMASK)
        isMPEG = [SF_FORMAT_MPEG_LAYER_I, SF_FORMAT_MPEG_LAYER_II, SF_FORMAT_MPEG_LAYER_III].contains {
            Int32($0) == sub
        }
        promisedFrames = Self.promisedFrames(handle, info)
        guard channels > 0, sampleRate > 0 else {
            sf_close(handle)
            file = nil
            throw .unsupportedFormat(
                path: name, reason: "header declares \(channels) channels at \(Int(sampleRate)) Hz")
        }
    }

    /// What is wrong with a file libsndfile would not open, from its error text. For a file
    /// that opened and is regular, libsndfile's "File does not exist or is not a regular
    /// file" (its answer when libmpg123 finds no MPEG frame) is not true, so say what is.
    private static func openFailure(_ name: String, _ text: String, header: [UInt8]) -> AudioIOError {
        if LibraryNoise.looksLikeMPEG(header) && !text.contains("MPEG") {
            return .unsupportedFormat(
                path: name, reason: "it starts like MPEG audio (MP3) but holds no valid MPEG frame")
        }
        if text.contains("not recognised") || text.contains("does not exist") { return .noAudioHeader(path: name) }
        return .unsupportedFormat(path: name, reason: text)
    }

    deinit {
        if let file { sf_close(file) }
        if let descriptor { close(descriptor) }
        block?.deallocate()
    }

    /// Reads floats through libsndfile, but converts 16-bit PCM itself (``isPCM16``).
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioIOError) -> Int {
        guard file != nil, let base = buffer.baseAddress else { return 0 }
        let want = buffer.count / channels
        guard want > 0 else { return 0 }
        if isPCM16 {
            let p = try readPCM16(maxFrames: want)
            convertPCM16(p, into: base)
            return p.count / channels
        }
        let n =
            isMPEG
            ? LibraryNoise.silenced { sf_readf_float(file, base, sf_count_t(want)) }
            : sf_readf_float(file, base, sf_count_t(want))  // sf_readf_float(3)
        return try counted(n)
    }

    /// Reads up to `maxFrames` frames of 16-bit samples as stored (full scale 32768,
    /// interleaved) into the reader's own buffer and returns them: `channels` values a
    /// frame, empty at the end. Valid until the next read. Only for a file whose
    /// ``isPCM16`` is true (libsndfile would otherwise convert, and clip).
    public func readPCM16(maxFrames: Int) throws(AudioIOError) -> UnsafeBufferPointer<Int16> {
        guard let file, maxFrames > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        // libsndfile zeroes whatever of the request lies past the frames its header gave
        // (which it never reads beyond): asking for no more than those (at least one, to
        // see the end) reads the same frames without zeroing, or even touching, the rest
        // of a large buffer (128 KB for a file's 64 K frames, 34 page faults of a 0.3 s file).
        let maxFrames = frames >= 0 ? Int(min(Int64(maxFrames), max(frames - framesRead, 1))) : maxFrames
        let bytes = maxFrames * channels * 2
        if bufferBytes < bytes {
            block?.deallocate()
            block = .allocate(byteCount: bytes + 4096, alignment: 4096)
            bufferBytes = bytes
        }
        let p = (block! + bufferPageOffset).bindMemory(to: Int16.self, capacity: maxFrames * channels)
        let n = try counted(sf_readf_short(file, p, sf_count_t(maxFrames)))  // sf_readf_short(3)
        return UnsafeBufferPointer(start: p, count: n * channels)
    }

    /// Frames a libsndfile read returned, or its error.
    private func counted(_ n: sf_count_t) throws(AudioIOError) -> Int {
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
        // Not zeroed: libsndfile writes a terminated string, a few hundred bytes (zeroing
        // all 16 KB touched four pages the log never reaches).
        let capacity = 16384
        let log = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { log.deallocate() }
        log[0] = 0
        sf_command(handle, Int32(SFC_GET_LOG_INFO), log, Int32(capacity))  // sf_command(3)
        let text = String(cString: log)
        for line in text.split(separator: "\n") where line.contains("should be") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("data") || trimmed.hasPrefix("SSND") else { continue }
            let digits = trimmed.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
            guard digits.count >= 2, digits[0] > digits[1], info.frames > 0, digits[1] > 0 else { continue }
            let bytesPerFrame = Double(digits[1]) / Double(info.frames)
            // A 64-bit chunk size (W64, RF64) over a tiny frame size can exceed Int64.
            let promised = (Double(digits[0]) / bytesPerFrame).rounded(.down)
            guard promised < 9e18 else { continue }
            return Int64(promised)
        }
        return nil
    }

    private static func describe(_ handle: OpaquePointer, _ format: Int32) -> String {
        func name(_ command: Int32, _ value: Int32) -> String {
            var f = SF_FORMAT_INFO()
            f.format = value
            guard sf_command(handle, command, &f, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let n = f.name else {
                return "?"
            }
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
