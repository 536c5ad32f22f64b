import BoardModels
import Foundation
import ModemAudioIO
import ModemDSP
import ModemTestSupport
import Testing

/// The rules that FSK and HiJack share on the command line, checked on both modems: they
/// run through one decode session, and these tests would catch the paths drifting apart.
@Suite("one rule for every modem")
struct UnifiedModemTests {
    enum Kind: String, CaseIterable, Sendable { case fsk, hijack }

    static let rate = 44_100.0

    /// A burst of `bytes` in the modem's signal, `lead` seconds of silence first, and a
    /// second of silence after.
    static func signal(_ kind: Kind, _ bytes: [UInt8], lead: Double) throws -> [Float] {
        var samples = [Float](repeating: 0, count: Int(lead * rate))
        switch kind {
        case .fsk:
            var encoder = BurstEncoder(
                modulator: try FSKModulator(profile: .softmodem1225, sampleRate: rate, amplitude: 0.5))
            var out = [Float](
                repeating: 0, count: encoder.maxSamples(forBytes: bytes.count) + encoder.maxSamplesForFinish)
            let n = out.withUnsafeMutableBufferPointer { o in
                bytes.withUnsafeBufferPointer { b in
                    let k = encoder.encode(b, into: o.baseAddress!)
                    return k + encoder.finishBurst(into: o.baseAddress! + k)
                }
            }
            samples += out[0..<n]
        case .hijack:
            var transmitter = HiJackBoardTransmitter(sampleRate: rate, level: 0.5)
            transmitter.render(transmitter.halfBits(for: bytes, leadingIdleBits: 30), into: &samples)
            transmitter.render(transmitter.halfBits(for: [], leadingIdleBits: 10), into: &samples)
        }
        return samples + [Float](repeating: 0, count: Int(rate))
    }

    static func write(_ channels: [[Float]], rate: Double = rate, name: String) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        let frames = channels.map(\.count).max() ?? 0
        var interleaved = [Float](repeating: 0, count: frames * channels.count)
        for (c, samples) in channels.enumerated() {
            for (i, x) in samples.enumerated() { interleaved[i * channels.count + c] = x }
        }
        let writer = try WAVStreamWriter(path: path, sampleRate: Int(rate), channels: channels.count)
        try interleaved.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        return path
    }

    static func profile(_ kind: Kind) -> [String] { ["--profile", kind == .fsk ? "softmodem-1225" : "hijack"] }

    @Test("a message's time is the end of its last byte", arguments: Kind.allCases)
    func messageTimeIsLastByteEnd(kind: Kind) throws {
        let text = Array("time\n".utf8)
        let samples = try Self.signal(kind, text, lead: 0.25)
        // The receiver itself says where the last byte ends.
        var events: [ModemEvent] = []
        switch kind {
        case .fsk:
            var receiver = try FSKSettings(profile: .softmodem1225).makeReceiver(sampleRate: Self.rate)
            samples.withUnsafeBufferPointer { receiver.process($0, into: &events) }
            receiver.flush(into: &events)
        case .hijack:
            var receiver = try HiJackSettings().makeReceiver(sampleRate: Self.rate)
            samples.withUnsafeBufferPointer { receiver.process($0, into: &events) }
            receiver.flush(into: &events)
        }
        let bytes = events.filter { $0.kind == .byte }
        #expect(bytes.map(\.value) == text)
        let lastEnd = Double(bytes.last?.endSample ?? 0) / Self.rate
        let firstStart = Double(bytes.first?.startSample ?? 0) / Self.rate

        let path = try Self.write([samples], name: "\(kind).wav")
        let r = try CLI.softmodem(["decode"] + Self.profile(kind) + ["--protocol", "line", "--json", path])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let time = try #require(object?["time"] as? Double, "\(r.stdoutText)")
        #expect(abs(time - lastEnd) <= 0.001, "time \(time), last byte ends \(lastEnd), first starts \(firstStart)")
    }

    @Test("the channel with the most bytes in the first second is decoded", arguments: Kind.allCases)
    func channelChoice(kind: Kind) throws {
        // Left: one byte, first. Right: a longer message that starts a little later. A
        // rule of "first channel with a good byte" would pick the left one.
        let left = try Self.signal(kind, [0x21], lead: 0.05)
        let message = Array("the right channel\n".utf8)
        let right = try Self.signal(kind, message, lead: 0.15)
        let path = try Self.write([left, right], name: "\(kind)-stereo.wav")
        let r = try CLI.softmodem(["decode", "-v"] + Self.profile(kind) + [path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Array(r.stdout) == message, "\(r.stdoutText)")
        #expect(r.stderr.contains("decoding channel 2 of 2"), "\(r.stderr)")
    }

    @Test("a sample rate the modem cannot use is a usage error (exit 2)", arguments: Kind.allCases)
    func configurationErrorsExitTwo(kind: Kind) throws {
        let path = try Self.write([[Float](repeating: 0.1, count: 4000)], rate: 4000, name: "\(kind)-4k.wav")
        let r = try CLI.softmodem(["decode"] + Self.profile(kind) + [path])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: ") && r.stderr.contains("4000"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
