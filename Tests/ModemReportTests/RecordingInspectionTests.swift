import BoardModels
import ModemAudioIO
import ModemDSP
import ModemDecoding
import ModemReport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A recording inspected as `decode` reads it: the chosen channel's analysis, and the
/// failures as values.
@Suite("a recording inspected")
struct RecordingInspectionTests {
    static let bytes = Array("inspected on the right channel".utf8)

    /// A 16-bit WAV of `samples` placed by `layout`, in a new file under /tmp.
    static func wav(_ samples: [Float], layout: ChannelLayout) throws -> String {
        let path = "/tmp/inspection-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).wav"
        var sink = try AudioSink(path: path, sampleRate: 44_100, layout: layout, float: false)
        try sink.write(samples, count: samples.count)
        try sink.finish()
        return path
    }

    @Test("stereo with the signal on the right: that channel is chosen and read whole")
    func chosenChannel() throws {
        let signal = try TestSignals.encode(Self.bytes, amplitude: 0.5, silence: 4410)
        let path = try Self.wav(signal, layout: .right)
        defer { unlink(path) }
        for modem in [Modem.auto(AutoSettings()), .fsk(FSKSettings(profile: .softmodem1225))] {
            let result = try RecordingInspection.analyse(
                SoundFileReader(path: path), modem: modem, channel: nil, format: "test", describe: { _ in "found" })
            #expect(result.chosenChannel == 1)
            #expect(result.analysis.text == Self.bytes, "\(modem.name)")
            #expect(result.analysis.framingErrors == 0)
            // Only auto lists detections, in the caller's words.
            #expect(result.analysis.detections == (modem.name == "auto" ? ["found"] : []), "\(modem.name)")
        }
    }

    @Test("a channel the file does not have, and a file with no audio, are errors naming it")
    func failures() throws {
        let mono = try Self.wav(try TestSignals.encode(Self.bytes, amplitude: 0.5), layout: .mono)
        defer { unlink(mono) }
        let modem = Modem.fsk(FSKSettings(profile: .softmodem1225))
        #expect(throws: InspectionError.session(.noSuchChannel(input: mono, channels: 1, requested: 1))) {
            try RecordingInspection.analyse(
                SoundFileReader(path: mono), modem: modem, channel: 1, format: "", describe: { _ in "" })
        }
        let empty = try Self.wav([], layout: .mono)
        defer { unlink(empty) }
        #expect(throws: InspectionError.problem(.noAudio(input: empty))) {
            try RecordingInspection.analyse(
                SoundFileReader(path: empty), modem: modem, channel: nil, format: "", describe: { _ in "" })
        }
    }
}
