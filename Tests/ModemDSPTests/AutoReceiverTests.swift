import BoardModels
import CommandLineText
import ModemDSP
import ModemTestSupport
import RealModule
import Testing

/// ``AutoReceiver`` decodes bursts of any profile and format with no options, one after
/// another in one stream, and says what it detected.
@Suite struct AutoReceiverTests {
    static func run(_ signal: [Float], rate: Double = 44_100, chunk: Int = 1500) throws -> (
        bytes: [UInt8], receiver: AutoReceiver
    ) {
        var receiver = try AutoReceiver(sampleRate: rate)
        var events: [ModemEvent] = []
        TestSignals.feed(signal, chunk: chunk) { receiver.process($0, into: &events) }
        receiver.flush(into: &events)
        return (events.filter { $0.kind == .byte }.map(\.value), receiver)
    }

    @Test("each built-in profile, alone, decodes exactly with its profile detected", arguments: ModemProfile.builtIn)
    func everyProfile(profile: ModemProfile) throws {
        let bytes = TestSignals.randomBytes(max(30, Int(profile.baud / 8)), seed: 11)
        var signal = try TestSignals.encode(bytes, profile: profile, amplitude: 0.3, silence: 6000)
        TestSignals.addNoise(&signal, snr: 25, signalPower: 0.045, seed: 3)
        let (got, receiver) = try Self.run(signal)
        #expect(got == bytes, "\(profile.name): \(receiver.detections)")
        #expect(receiver.detections.map(\.signature.profile?.name) == [profile.name])
        #expect(receiver.detections.first?.options == "--profile \(profile.name)")
    }

    @Test("three profiles one after another in one stream each decode, each detected")
    func severalProfiles() throws {
        let parts: [(ModemProfile, [UInt8])] = [
            (.softmodem1225, Array("first burst at 1225 baud".utf8)),
            (.webjack1225, Array("then WebJack's low tones".utf8)),
            (.softmodem315, Array("and 315 baud".utf8)),
        ]
        try Self.expectEachDecodedAndDetected(parts)
    }

    /// The same tones at twice the rate: the last burst's demodulator must not be kept
    /// for the next (a check of eight clean characters, no bit timing, decides).
    @Test("bursts on the same tones at 1225 and 2450 baud, in turn, each decode and are each detected")
    func sameTonesOtherRate() throws {
        let parts: [(ModemProfile, [UInt8])] = [
            (.softmodem1225, TestSignals.randomBytes(40, seed: 1)),
            (.softmodem2450, TestSignals.randomBytes(40, seed: 2)),
            (.softmodem1225, TestSignals.randomBytes(40, seed: 3)),
            (.softmodem2450, Array("short".utf8)),
        ]
        try Self.expectEachDecodedAndDetected(parts)
    }

    /// Sends each part's bytes as a burst of its profile, one after another with silence
    /// between, and expects every byte back and every burst detected as its profile.
    static func expectEachDecodedAndDetected(_ parts: [(ModemProfile, [UInt8])]) throws {
        var signal: [Float] = []
        for (profile, bytes) in parts {
            signal += try TestSignals.encode(bytes, profile: profile, amplitude: 0.4, silence: 20_000)
        }
        let (got, receiver) = try run(signal)
        #expect(got == parts.flatMap(\.1), "\(String(decoding: got, as: UTF8.self)) \(receiver.detections)")
        #expect(receiver.detections.map(\.signature.profile?.name) == parts.map(\.0.name))
    }

    @Test("a 7E1 stream is detected as 7E1 and decodes exactly")
    func sevenE1() throws {
        let format = try FrameFormat(dataBits: 7, parity: .even)
        let text = Array("Seven data bits, even parity: 7E1.".utf8)
        let signal = try TestSignals.encode(text, amplitude: 0.4, format: format, silence: 8000)
        let (got, receiver) = try Self.run(signal)
        #expect(got == text)
        #expect(receiver.detections.first?.format == format)
        #expect(
            receiver.detections.first?.text
                == "detected softmodem-1225 (1225 baud, mark 7350 Hz, space 4900 Hz, 7E1): pin with --profile softmodem-1225 --parity even --data-bits 7"
        )
    }

    @Test("silence, noise and a lone tone produce nothing and detect nothing")
    func notAModem() throws {
        var noise = [Float](repeating: 0, count: 88_200)
        TestSignals.addNoise(&noise, snr: 0, signalPower: 0.01, seed: 4)
        let tone = (0..<44_100).map { 0.3 * Float(Double.sin(2 * Double.pi * 1_000 * Double($0) / 44_100)) }
        let (got, receiver) = try Self.run([Float](repeating: 0, count: 20_000) + noise + tone)
        #expect(got.isEmpty)
        #expect(receiver.detections.isEmpty)
    }
}
