import ModemAudioIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The file and PCM layer on its own: writers and readers agree, formats decode to the
/// right values, and broken input gives typed errors.
@Suite("audio I/O")
struct AudioIOTests {
    static func temporaryPath(_ name: String) -> String {
        var template = Array("/tmp/softmodem-io-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return dir + "/" + name
    }

    static func ramp(_ count: Int) -> [Float] {
        (0..<count).map { Float($0 % 200 - 100) / 128 }
    }

    static func readAll(_ source: some SampleSource) throws -> [Float] {
        var source = source
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 1000 * source.channels)
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { b throws(AudioIOError) in try source.read(into: b)
            }
            if frames == 0 { return out }
            out += buffer[0..<(frames * source.channels)]
        }
    }

    @Test(
        "streaming WAV writer -> libsndfile reader, 16-bit and float",
        arguments: [WAVStreamWriter.Encoding.pcm16, .float32])
    func wavRoundTrip(encoding: WAVStreamWriter.Encoding) throws {
        let path = Self.temporaryPath("a.wav")
        let samples = Self.ramp(5000)
        let writer = try WAVStreamWriter(path: path, sampleRate: 22_050, channels: 2, encoding: encoding)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        let reader = try SoundFileReader(path: path)
        #expect(reader.sampleRate == 22_050)
        #expect(reader.channels == 2)
        #expect(reader.frames == 2500)
        let back = try Self.readAll(reader)
        #expect(back.count == samples.count)
        let tolerance: Float = encoding == .pcm16 ? 1.0 / 16_000 : 0
        #expect(zip(back, samples).allSatisfy { abs($0 - $1) <= tolerance })
        #expect(reader.truncation == nil)
    }

    @Test("writer clips out-of-range samples and turns NaN into silence")
    func wavClipping() throws {
        let path = Self.temporaryPath("clip.wav")
        let writer = try WAVStreamWriter(path: path, sampleRate: 8000, channels: 1)
        let input: [Float] = [2, -2, .nan, .infinity, 0.5]
        try input.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        let back = try Self.readAll(try SoundFileReader(path: path))
        #expect(back.count == 5)
        #expect(abs(back[0] - 1) < 0.001 && abs(back[1] + 1) < 0.001)
        #expect(back[2] == 0 && abs(back[3] - 1) < 0.001 && abs(back[4] - 0.5) < 0.001)
    }

    @Test("16-bit reads: readPCM16 gives the stored integers, read(into:) their x / 32768, for any chunking")
    func pcm16Reads() throws {
        let path = Self.temporaryPath("p.wav")
        let samples = Self.ramp(9001) + [1, -1, 0.999_97]
        let writer = try WAVStreamWriter(path: path, sampleRate: 44_100, channels: 1, encoding: .pcm16)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        let floats = try Self.readAll(try SoundFileReader(path: path))
        let reader = try SoundFileReader(path: path)
        #expect(reader.isPCM16)
        var ints: [Int16] = []
        var chunk = 1
        while true {
            let p = try reader.readPCM16(maxFrames: chunk)
            if p.isEmpty { break }
            ints += p
            chunk = chunk * 3 % 4097 + 1
        }
        #expect(ints.count == samples.count)
        #expect(ints.map { Float($0) * (1.0 / 32768) } == floats)
        #expect(ints.max() == 32767)
        #expect(reader.truncation == nil)
    }

    @Test("libsndfile writer formats read back", arguments: ["flac", "aiff", "caf", "au", "wav"])
    func soundFileWriter(ext: String) throws {
        let path = Self.temporaryPath("b.\(ext)")
        let samples = Self.ramp(3000)
        let writer = try SoundFileWriter(path: path, sampleRate: 48_000, channels: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0, channels: 1) }
        try writer.finish()
        let back = try Self.readAll(try SoundFileReader(path: path))
        #expect(back.count == 3000)
        #expect(zip(back, samples).allSatisfy { abs($0 - $1) <= 1.0 / 16_000 })
    }

    @Test("unknown output extension is a parameter error")
    func badExtension() {
        #expect(throws: AudioIOError.self) {
            try SoundFileWriter(path: Self.temporaryPath("x.mp3"), sampleRate: 44_100, channels: 1)
        }
    }

    @Test("raw formats decode to the right values", arguments: RawSampleFormat.allCases)
    func rawFormats(format: RawSampleFormat) throws {
        let path = Self.temporaryPath("r.raw")
        // Three samples: full-scale negative, zero, half-scale positive, in each encoding.
        let bytes: [UInt8]
        switch format {
        case .s16le: bytes = [0x00, 0x80, 0x00, 0x00, 0x00, 0x40]
        case .s8: bytes = [0x80, 0x00, 0x40]
        case .u8: bytes = [0x00, 0x80, 0xC0]
        case .s32le: bytes = [0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x40]
        case .f32le: bytes = [0, 0, 0x80, 0xBF, 0, 0, 0, 0, 0, 0, 0, 0x3F]
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        let back = try Self.readAll(try RawPCMReader(path: path, format: format, sampleRate: 8000, channels: 1))
        #expect(back == [-1, 0, 0.5])
    }

    @Test("a trailing partial frame is dropped, not misread")
    func rawPartialFrame() throws {
        let path = Self.temporaryPath("p.raw")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let bytes: [UInt8] = [0x00, 0x40, 0x00, 0xC0, 0x12]  // two s16le samples and a stray byte
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        let back = try Self.readAll(try RawPCMReader(path: path, format: .s16le, sampleRate: 8000, channels: 1))
        #expect(back == [0.5, -0.5])
    }

    @Test("typed errors: missing, empty, directory, not audio, bad raw parameters")
    func errors() throws {
        #expect(throws: AudioIOError.cannotOpen(path: "/nonexistent/a.wav", reason: "No such file or directory")) {
            try SoundFileReader(path: "/nonexistent/a.wav")
        }
        let empty = Self.temporaryPath("empty.wav")
        close(open(empty, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        #expect(throws: AudioIOError.empty(path: empty)) { try SoundFileReader(path: empty) }
        #expect(throws: AudioIOError.cannotOpen(path: "/tmp", reason: "is a directory")) {
            try SoundFileReader(path: "/tmp")
        }
        let text = Self.temporaryPath("text.wav")
        let fd = open(text, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = "not audio at all".withCString { write(fd, $0, 16) }
        close(fd)
        #expect(throws: AudioIOError.self) { try SoundFileReader(path: text) }
        #expect(throws: AudioIOError.self) {
            try RawPCMReader(path: text, format: .s16le, sampleRate: .nan, channels: 1)
        }
        #expect(throws: AudioIOError.self) {
            try RawPCMReader(path: text, format: .s16le, sampleRate: 8000, channels: 0)
        }
    }

    @Test("a WAV cut short reports truncation after the data that is there")
    func truncation() throws {
        let path = Self.temporaryPath("t.wav")
        let writer = try WAVStreamWriter(path: path, sampleRate: 8000, channels: 1)
        let samples = Self.ramp(4000)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        #expect(truncate(path, 44 + 2 * 1000) == 0)
        let reader = try SoundFileReader(path: path)
        let back = try Self.readAll(reader)
        #expect(back.count == 1000)
        #expect(reader.truncation == .truncated(path: path, expectedFrames: 4000, foundFrames: 1000))
    }
}
