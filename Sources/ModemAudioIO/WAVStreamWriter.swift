import ModemSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a WAV file (16-bit PCM or 32-bit float) to a file descriptor as samples arrive,
/// so audio can stream into a pipe (`-o -`), which libsndfile cannot do for WAV.
///
/// The header is written first with the largest sizes (the streaming convention that
/// libsndfile, sox and minimodem read as "until end of file"); when the descriptor is a
/// regular file, ``finish()`` seeks back and writes the real sizes. Samples are clipped to
/// +-1 and NaN becomes 0.
public final class WAVStreamWriter {
    /// The data chunk's sample format: 16-bit PCM or 32-bit IEEE float.
    public enum Encoding: Sendable { case pcm16, float32 }

    /// The path, or "stdout" for `"-"`.
    public let name: String
    /// Frames per second the header declares, in Hz.
    public let sampleRate: Int
    /// Interleaved channels per frame the header declares.
    public let channels: Int
    /// The sample format every sample is written in.
    public let encoding: Encoding
    private let fd: FileDescriptor
    private let ownsDescriptor: Bool
    private var bytes: [UInt8] = []
    private var dataBytes: Int64 = 0
    private var finished = false

    /// Opens `path` for writing (`"-"` is standard output).
    public init(path: String, sampleRate: Int, channels: Int, encoding: Encoding = .pcm16) throws(AudioIOError) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.encoding = encoding
        if path == "-" {
            name = "stdout"
            fd = .standardOutput
            ownsDescriptor = false
        } else {
            name = path
            do {
                fd = try FileDescriptor.open(path, forWriting: true)
            } catch {
                throw .cannotOpen(path: path, reason: error.description)
            }
            ownsDescriptor = true
        }
        bytes.reserveCapacity(1 << 16)
        bytes.append(contentsOf: header(dataBytes: nil))
        try flush()
    }

    deinit {
        if !finished { try? finish() }
        if ownsDescriptor { try? fd.close() }
    }

    private var bytesPerSample: Int { encoding == .pcm16 ? 2 : 4 }

    private func header(dataBytes: Int64?) -> [UInt8] {
        var h: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { h.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { h.append(contentsOf: $0) } }
        let data = dataBytes.map { UInt32(clamping: $0) } ?? 0xFFFF_FFFF
        h.append(contentsOf: Array("RIFF".utf8))
        u32(dataBytes == nil ? 0xFFFF_FFFF : UInt32(clamping: Int64(data) + 36))
        h.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16)
        u16(encoding == .pcm16 ? 1 : 3)
        u16(UInt16(channels))
        u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * channels * bytesPerSample))
        u16(UInt16(channels * bytesPerSample))
        u16(UInt16(bytesPerSample * 8))
        h.append(contentsOf: Array("data".utf8))
        u32(data)
        return h
    }

    /// Appends interleaved frames.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioIOError) {
        for x in samples {
            let v = x.isNaN ? 0 : min(max(x, -1), 1)
            switch encoding {
            case .pcm16:
                let s = Int16((v * 32767).rounded())
                bytes.append(UInt8(truncatingIfNeeded: s))
                bytes.append(UInt8(truncatingIfNeeded: s >> 8))
            case .float32:
                let b = v.bitPattern
                bytes.append(UInt8(truncatingIfNeeded: b))
                bytes.append(UInt8(truncatingIfNeeded: b >> 8))
                bytes.append(UInt8(truncatingIfNeeded: b >> 16))
                bytes.append(UInt8(truncatingIfNeeded: b >> 24))
            }
        }
        dataBytes += Int64(samples.count * bytesPerSample)
        if bytes.count >= 1 << 15 { try flush() }
    }

    private func flush() throws(AudioIOError) {
        guard !bytes.isEmpty else { return }
        defer { bytes.removeAll(keepingCapacity: true) }
        try write(bytes)
    }

    /// Flushes, and fixes the header sizes when the output can seek.
    public func finish() throws(AudioIOError) {
        guard !finished else { return }
        finished = true
        try flush()
        if (try? fd.seek(offset: 0, from: .start)) == 0 {  // lseek(2) fails on pipes: keep the streaming header
            try write(header(dataBytes: dataBytes))
            _ = try? fd.seek(offset: 0, from: .end)
        }
    }

    private func write(_ data: [UInt8]) throws(AudioIOError) {
        do {
            try data.withUnsafeBytes { b in Result { () throws(Errno) in try fd.writeAllRetrying(b) } }.get()
        } catch {
            throw .writeFailed(path: name, reason: error.description)
        }
    }
}
