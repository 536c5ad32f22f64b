import ModemAudioIO
import ModemDSP
import ModemFraming
import ModemLive
import ModemSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `send FILE -o OUT` as a library: the recording holds the file's packets, each a burst,
/// repeated as asked, and the file's header; a missing file or an unwritable output is a
/// typed failure.
@Suite struct LinkRecordingTests {
    static let bytes: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    func paths() throws -> (file: String, wav: String) {
        let base = FilePaths.join(FilePaths.temporaryDirectory(), "softmodem-rec-\(UInt32.random(in: 0...UInt32.max))")
        let out = try OutputFile(path: base + ".bin")
        try out.write(Self.bytes)
        out.close()
        return (base + ".bin", base + ".wav")
    }

    func settings(repeats: Int) -> LinkRecording.Settings {
        LinkRecording.Settings(
            profile: .softmodem1225, format: .eightN1, sampleRate: 44_100, preambleBits: 50, repeats: repeats,
            gapSeconds: 0.05)
    }

    /// The packets decoded back from the recording, in order.
    func packets(_ wav: String) throws -> [LinkPacket] {
        let reader = try SoundFileReader(path: wav)
        var samples = [Float](repeating: 0, count: 1 << 16)
        var demodulator = try FSKDemodulator(DemodulatorConfiguration(profile: .softmodem1225, sampleRate: 44_100))
        var events: [ModemEvent] = []
        while true {
            let n = try samples.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { break }
            samples.withUnsafeBufferPointer {
                demodulator.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &events)
            }
        }
        demodulator.flush(into: &events)
        var parser = LinkPacketParser()
        return events.filter { $0.kind == .byte }.compactMap { parser.push($0.value) }
    }

    @Test func theRecordingHoldsEveryPacketRepeated() throws {
        let (file, wav) = try paths()
        defer { _ = (unlink(file), unlink(wav)) }
        let once = try LinkRecording.write(file: file, to: wav, settings(repeats: 1))
        #expect(once.header.name == FilePaths.baseName(file))
        #expect(once.header.size == 300 && once.header.crc == CRC32.update(0, Self.bytes))
        let sent = try packets(wav)
        #expect(sent.count == once.bursts)
        // Content packets carry the file in order after the header's.
        let content = sent.flatMap(\.payload)
        #expect(content.suffix(300) == Self.bytes[...])
        let twice = try LinkRecording.write(file: file, to: wav, settings(repeats: 2))
        #expect(twice.bursts == 2 * once.bursts && twice.seconds > once.seconds)
        #expect(try packets(wav).count == twice.bursts)
    }

    @Test func theReaderTakesTheFileBackAndNamesAnIncompleteOne() throws {
        let (file, wav) = try paths()
        defer { _ = (unlink(file), unlink(wav)) }
        let summary = try LinkRecording.write(file: file, to: wav, settings(repeats: 2))
        let store = MemoryFileStore()
        var reader = LinkRecording.Reader(factory: FSKSettings(profile: .softmodem1225), store: store)
        var source = try SoundFileReader(path: wav)
        var completed: [String] = []
        try reader.read(&source) { completed.append($0.name) }
        try reader.finish()
        #expect(completed == [summary.header.name])
        #expect(store.committed.map(\.1) == [Self.bytes])
        // Repeated packets are duplicates, counted and dropped.
        #expect(reader.statistics.duplicates > 0 && reader.statistics.payloadBytes > 300)

        // The first third of the recording: the file begun, never completed, kept as a part.
        let half = FilePaths.join(FilePaths.temporaryDirectory(), "softmodem-half-\(getpid()).wav")
        defer { unlink(half) }
        let all = try SoundFileReader(path: wav)
        var samples = [Float](repeating: 0, count: Int(all.frames) / 3)
        let n = try samples.withUnsafeMutableBufferPointer { try all.read(into: $0) }
        let writer = try WAVStreamWriter(path: half, sampleRate: 44_100, channels: 1)
        try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        try writer.finish()
        let partStore = MemoryFileStore()
        var partial = LinkRecording.Reader(factory: FSKSettings(profile: .softmodem1225), store: partStore)
        var cut = try SoundFileReader(path: half)
        try partial.read(&cut)
        #expect(throws: LinkRecording.ReadFailure.self) { try partial.finish() }
        #expect(partStore.abandoned == [summary.header.name] && partStore.committed.isEmpty)
    }

    @Test func aMissingFileAndABadOutputAreTypedFailures() throws {
        let (file, _) = try paths()
        defer { unlink(file) }
        do {
            _ = try LinkRecording.write(file: file + ".gone", to: "/tmp/never.wav", settings(repeats: 1))
            Issue.record("a missing file was recorded")
        } catch {
            guard case .input(let e) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(e.operation == .open)
        }
        do {
            _ = try LinkRecording.write(file: file, to: "/nonexistent/dir/x.wav", settings(repeats: 1))
            Issue.record("an unwritable output was recorded")
        } catch {
            guard case .output = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }
}
