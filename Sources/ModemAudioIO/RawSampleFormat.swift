import ModemSystem
import SystemPackage

/// Encodings of headerless ("raw") PCM.
public enum RawSampleFormat: String, Sendable, CaseIterable {
    /// Signed 16-bit little-endian.
    case s16le
    /// Signed 8-bit.
    case s8
    /// Unsigned 8-bit (128 = silence).
    case u8
    /// Signed 32-bit little-endian.
    case s32le
    /// IEEE float 32-bit little-endian.
    case f32le

    /// Bytes one sample takes: 1 for the 8-bit formats, 2 for 16-bit, 4 for 32-bit and float.
    public var bytesPerSample: Int {
        switch self {
        case .s8, .u8: return 1
        case .s16le: return 2
        case .s32le, .f32le: return 4
        }
    }

    /// Converts `count` samples at `bytes` to floats in `output` (full scale = +-1).
    /// Float input is passed through, NaN included: the demodulator treats NaN as silence.
    func decode(_ bytes: UnsafeRawPointer, count: Int, into output: UnsafeMutablePointer<Float>) {
        switch self {
        case .s16le:
            for i in 0..<count {
                let v = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))
                output[i] = Float(v) * (1.0 / 32768)
            }
        case .s8:
            for i in 0..<count { output[i] = Float(bytes.load(fromByteOffset: i, as: Int8.self)) * (1.0 / 128) }
        case .u8:
            for i in 0..<count {
                output[i] = (Float(bytes.load(fromByteOffset: i, as: UInt8.self)) - 128) * (1.0 / 128)
            }
        case .s32le:
            for i in 0..<count {
                let v = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))
                output[i] = Float(v) * (1.0 / 2_147_483_648)
            }
        case .f32le:
            for i in 0..<count {
                let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                output[i] = Float(bitPattern: bits)
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Reads headerless PCM from a file or standard input, with a rate and channel count the
/// caller supplies. A trailing partial frame (a file cut mid-sample) is dropped.
public final class RawPCMReader: SampleSource {
    /// The path, or "stdin" for `"-"`.
    public let name: String
    /// Frames per second as the caller gave it, in Hz (1000-384000).
    public let sampleRate: Double
    /// Interleaved channels per frame as the caller gave it (1-32).
    public let channels: Int
    /// The encoding the bytes are decoded from.
    public let format: RawSampleFormat
    /// True for standard input (`"-"`), false for a file.
    public let isStream: Bool
    private let fd: FileDescriptor
    private let ownsDescriptor: Bool
    private var bytes: [UInt8]
    private var carry = 0  // bytes of an incomplete frame kept from the last read

    /// Opens `path` (`"-"` for standard input). Throws for a missing or empty file, or a
    /// rate or channel count out of range.
    public init(path: String, format: RawSampleFormat, sampleRate: Double, channels: Int) throws(AudioIOError) {
        guard sampleRate.isFinite, sampleRate >= 1000, sampleRate <= 384_000 else {
            throw .invalidParameters("raw sample rate \(sampleRate) Hz is out of range")
        }
        guard (1...32).contains(channels) else {
            throw .invalidParameters("raw channel count \(channels) is out of range 1-32")
        }
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        isStream = path == "-"
        if path == "-" {
            name = "stdin"
            fd = .standardInput
            ownsDescriptor = false
        } else {
            name = path
            let d: FileDescriptor
            do { d = try FileDescriptor.open(path) } catch { throw .cannotOpen(path: path, reason: error.description) }
            if let st = try? d.stat() {  // fstat(2): the file opened, not the path again
                if st.type == .directory {
                    try? d.close()
                    throw .cannotOpen(path: path, reason: "is a directory")
                }
                if st.type == .regular && st.size == 0 {
                    try? d.close()
                    throw .empty(path: path)
                }
            }
            fd = d
            ownsDescriptor = true
        }
        bytes = [UInt8](repeating: 0, count: isStream ? 1 << 16 : 1 << 19)
    }

    deinit { if ownsDescriptor { try? fd.close() } }

    /// Decodes whole frames, keeping a partial frame's bytes for the next read (dropped at the end).
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioIOError) -> Int {
        let frameBytes = format.bytesPerSample * channels
        let maxFrames = min(buffer.count / channels, bytes.count / frameBytes)
        guard maxFrames > 0, let out = buffer.baseAddress else { return 0 }
        let want = maxFrames * frameBytes - carry
        let got: Int
        do {
            got = try bytes.withUnsafeMutableBytes { b in
                Result { () throws(Errno) in
                    try fd.readFully(into: UnsafeMutableRawBufferPointer(rebasing: b[carry..<(carry + want)]))
                }
            }.get()
        } catch {
            throw .readFailed(path: name, reason: error.description)
        }
        let available = carry + got
        let frames = available / frameBytes
        bytes.withUnsafeBytes { format.decode($0.baseAddress!, count: frames * channels, into: out) }
        let used = frames * frameBytes
        carry = available - used
        if carry > 0 && got > 0 {
            bytes.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + used, byteCount: carry) }
        }
        if got == 0 { carry = 0 }
        return frames
    }
}
