import BoardModels
import Foundation
import ModemAudioIO
import ModemDSP
import ModemTestSupport
import Testing

@Suite("HiJack on the command line")
struct HiJackCLITests {
    @Test("encode --profile hijack | decode --profile hijack, all byte values")
    func pipeRoundTrip() throws {
        let bytes = Data((0...255).map { UInt8($0) })
        let encoded = try CLI.softmodem(
            ["encode", "--profile", "hijack", "--byte-period", "14", "-o", "-"], stdin: bytes)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let decoded = try CLI.softmodem(["decode", "--profile", "hijack", "-"], stdin: encoded.stdout)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == bytes)
        #expect(decoded.stderr.isEmpty, "quiet by default")
    }

    @Test(
        "encode writes left = data, right = power tone; the board model decodes the left channel",
        arguments: [44_100, 48_000, 96_000])
    func stereoLayout(rate: Int) throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("h.wav").path
        let text = "HiJack \(rate)"
        let r = try CLI.softmodem([
            "encode", "--profile", "hijack", "--rate", "\(rate)", "--amplitude", "0", "--float", "--text", text, "-o",
            path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let reader = try SoundFileReader(path: path)
        #expect(reader.channels == 2)
        var all = [Float](repeating: 0, count: 2 * Int(reader.frames))
        let frames = try all.withUnsafeMutableBufferPointer { b throws(AudioIOError) in try reader.read(into: b) }
        let left = (0..<frames).map { all[2 * $0] }
        let right = (0..<frames).map { all[2 * $0 + 1] }
        var board = HiJackBoardReceiver(sampleRate: Double(rate))
        left.withUnsafeBufferPointer { board.process($0) }
        #expect(board.bytes == Array(text.utf8))
        // Power tone: full scale, 22050 Hz at 44.1 kHz (alternating samples), else 21 kHz.
        #expect(right.map(abs).max()! > 0.99)
        var crossings = 0
        for i in 1..<frames where (right[i - 1] < 0) != (right[i] < 0) { crossings += 1 }
        let expected = Double(rate == 44_100 ? 22_050 : 21_000) * 2 * Double(frames) / Double(rate)
        #expect(abs(Double(crossings) - expected) < 3)
    }

    @Test("a board's transmission through an inverting, clipping microphone path decodes from WAV")
    func boardTransmissionFromWAV() throws {
        let rate = 48_000.0
        let bytes = CLI.randomBytes(120, seed: 6)
        var transmitter = HiJackBoardTransmitter(sampleRate: rate, level: 0.5)
        var samples: [Float] = []
        transmitter.render(transmitter.halfBits(for: Array(bytes), leadingIdleBits: 30), into: &samples)
        transmitter.render(transmitter.halfBits(for: [], leadingIdleBits: 10), into: &samples)
        var path = HiJackMicrophonePath(
            sampleRate: rate, crosstalkHz: 21_000, crosstalkLevel: 0.1, gain: 3, clip: 0.9, invert: true)
        path.process(&samples)
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("board.wav").path
        let writer = try WAVStreamWriter(path: file, sampleRate: Int(rate), channels: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()

        let decoded = try CLI.softmodem(["decode", "--profile", "hijack", "-v", file])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == bytes)
        #expect(decoded.stderr.contains("120 bytes, 0 parity errors, 0 framing errors"), "\(decoded.stderr)")
        #expect(decoded.stderr.contains("inverted"), "\(decoded.stderr)")
    }

    @Test("power writes the tone alone on the right channel")
    func powerFile() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("p.wav").path
        let r = try CLI.softmodem([
            "power", "--rate", "96000", "--duration", "0.5", "--power-amplitude", "0.8", "-o", path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let reader = try SoundFileReader(path: path)
        #expect(reader.channels == 2)
        #expect(reader.frames == 48_000)
        var all = [Float](repeating: 0, count: 2 * 48_000)
        _ = try all.withUnsafeMutableBufferPointer { b throws(AudioIOError) in try reader.read(into: b) }
        #expect(stride(from: 0, to: all.count, by: 2).allSatisfy { all[$0] == 0 })
        let peak = stride(from: 1, to: all.count, by: 2).map { abs(all[$0]) }.max()!
        #expect(abs(peak - 0.8) < 0.01)
    }

    @Test(
        "impossible HiJack options are usage errors (exit 2, one line)",
        arguments: [
            ["encode", "--profile", "hijack", "--byte-period", "13", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--baud", "5000", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--power-tone", "0", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--rate", "48000", "--power-tone", "25000", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--power-amplitude", "1.5", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--power-amplitude", "nan", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--mark", "1200", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--parity", "odd", "--text", "x", "-o", "-"],
            ["encode", "--profile", "hijack", "--channels", "left", "--text", "x", "-o", "-"],
            ["encode", "--byte-period", "100", "--text", "x", "-o", "-"],
            ["encode", "--invert", "--text", "x", "-o", "-"],
            ["decode", "--profile", "hijack", "--baud", "1489", "-"],
            ["decode", "--profile", "hijack", "--squelch", "5", "-"],
            ["power", "--latency", "1", "--duration", "1"],  // live playback: bad latency
            ["power", "-o", "/tmp/softmodem-never-written.wav"],
            ["power", "--duration", "-1", "-o", "-"],
            ["power", "--rate", "1000", "--duration", "1", "-o", "-"],
        ])
    func usageErrors(arguments: [String]) throws {
        let r = try CLI.softmodem(arguments, stdin: Data())
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("decode --profile hijack on silence and garbage: clean runtime errors or nothing")
    func badInput() throws {
        let dir = try CLI.temporaryDirectory()
        let silent = dir.appendingPathComponent("silent.wav").path
        let writer = try WAVStreamWriter(path: silent, sampleRate: 44_100, channels: 1)
        let zeros = [Float](repeating: 0, count: 44_100)
        try zeros.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        let r = try CLI.softmodem(["decode", "--profile", "hijack", silent])
        #expect(r.status == 1)
        #expect(r.stderr.contains("silent"))
        let garbage = try CLI.softmodem(
            ["decode", "--profile", "hijack", "-"], stdin: Data((0..<5000).map { UInt8($0 % 251) }))
        #expect(garbage.status == 1)
        #expect(garbage.stdout.isEmpty)
        let raw = try CLI.softmodem(
            ["decode", "--profile", "hijack", "--raw", "--rate", "44100", "--format", "f32le", "-"],
            stdin: Data(repeating: 0xFF, count: 40_000))  // NaN floats
        #expect(raw.status == 1, "\(raw.stderr)")
        #expect(raw.stderr.contains("no finite samples"), "\(raw.stderr)")
        #expect(raw.stdout.isEmpty)
    }
}
