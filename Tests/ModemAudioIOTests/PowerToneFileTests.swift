import ModemAudioIO
import ModemDSP
import Testing

/// The HiJack power tone written to a file: right channel only, as many frames as asked,
/// in one continuous phase across writes.
@Suite("the power tone written to a file")
struct PowerToneFileTests {
    @Test("frames across several blocks: left silent, right the tone's samples in one phase")
    func rightChannelOnly() throws {
        let path = AudioIOTests.temporaryPath("power.wav")
        var tone = try HiJackPowerTone(frequency: 1000, sampleRate: 48_000, amplitude: 0.5)
        var reference = tone
        var sink = try AudioSink(path: path, sampleRate: 48_000, layout: .both, float: true)
        try sink.writePowerTone(&tone, frames: 10_000)
        try sink.writePowerTone(&tone, frames: 1)
        try sink.finish()
        let reader = try SoundFileReader(path: path)
        #expect(reader.channels == 2 && reader.frames == 10_001)
        let back = try AudioIOTests.readAll(reader)
        var expected = [Float](repeating: 0, count: 10_001)
        expected.withUnsafeMutableBufferPointer { reference.render(into: $0.baseAddress!, count: 10_001) }
        #expect(stride(from: 0, to: back.count, by: 2).allSatisfy { back[$0] == 0 })
        #expect(stride(from: 1, to: back.count, by: 2).map { back[$0] } == expected)
        #expect(expected.max() ?? 0 > 0.49)
    }
}
