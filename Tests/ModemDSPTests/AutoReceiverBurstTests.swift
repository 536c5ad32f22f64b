import BoardModels
import CommandLineText
import ModemDSP
import ModemTestSupport
import RealModule
import Testing

/// ``AutoReceiver`` on the bursts a board sends in practice: single characters, many bursts
/// of one sender, a sender changing speed on the same tones, slow senders that stand their
/// characters apart, HiJack in either polarity, and warbling whistles that are not a modem.
@Suite struct AutoReceiverBurstTests {
    @Test(
        "a burst of one or two characters decodes, its profile found by trial",
        arguments: [
            (ModemProfile.softmodem1225, "t"), (.softmodem1225, "ok"), (.webjack1225, "A"), (.softmodem2450, "z"),
            (.softmodem630, "7"),
        ])
    func shortBurst(profile: ModemProfile, text: String) throws {
        let bytes = Array(text.utf8)
        let signal = try TestSignals.encode(bytes, profile: profile, amplitude: 0.5, silence: 6000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(profile.name): \(receiver.detections)")
        #expect(receiver.detections.map(\.signature.profile?.name) == [profile.name])
    }

    @Test("many bursts from one sender: each decodes, each detected the same")
    func manyBursts() throws {
        var signal: [Float] = []
        var sent: [UInt8] = []
        for k in 0..<12 {
            let bytes = TestSignals.randomBytes(20, seed: UInt64(100 + k))
            sent += bytes
            signal += try TestSignals.encode(bytes, amplitude: 0.4, silence: 11_000)
        }
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == sent)
        #expect(receiver.detections.count == 12)
        #expect(Set(receiver.detections.map(\.options)) == ["--profile softmodem-1225"])
    }

    @Test("the same tones at twice the rate after a burst at 1225 baud are detected anew")
    func speedChange() throws {
        let first = Array("first at 1225 baud on 4900/7350".utf8)
        let second = Array("then 2450 baud on the same tones".utf8)
        let signal =
            try TestSignals.encode(first, profile: .softmodem1225, amplitude: 0.4, silence: 15_000)
            + TestSignals.encode(second, profile: .softmodem2450, amplitude: 0.4, silence: 15_000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == first + second, "\(String(decoding: got, as: UTF8.self)) \(receiver.detections)")
        #expect(receiver.detections.map(\.signature.profile?.name) == ["softmodem-1225", "softmodem-2450"])
    }

    @Test("HiJack from the board decodes in either polarity, detected as hijack", arguments: [false, true])
    func hiJack(inverted: Bool) throws {
        let bytes = HiJackSignals.randomBytes(40, seed: 5)
        var signal =
            [Float](repeating: 0, count: 8000) + HiJackSignals.boardSignal(bytes, sampleRate: 44_100)
            + [Float](repeating: 0, count: 8000)
        if inverted { signal = signal.map { -$0 } }
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(receiver.detections)")
        #expect(receiver.detections.first?.isHiJack == true)
        #expect(receiver.detections.first?.options == "--profile hijack")
        #expect(
            receiver.detections.first?.text.contains(inverted ? "inverted line" : "normal polarity") == true,
            "\(receiver.detections)")
    }

    @Test(
        "a long burst in white noise at 0 and -2 dB SNR decodes as well as with its profile named",
        arguments: [0.0, -2.0])
    func weakBurst(snr: Double) throws {
        let bytes = TestSignals.randomBytes(600, seed: 21)
        var signal = try TestSignals.encode(bytes, amplitude: 0.3, silence: 8000)
        TestSignals.addNoise(&signal, snr: snr, signalPower: 0.045, seed: 8)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        let pinned = try TestSignals.decode(signal)
        let autoErrors = TestSignals.editDistance(got, bytes)
        let pinnedErrors = TestSignals.editDistance(pinned, bytes)
        #expect(
            Double(autoErrors) <= 1.1 * Double(pinnedErrors) + 2,
            "auto \(autoErrors), pinned \(pinnedErrors): \(receiver.detections)")
        #expect(receiver.detections.first?.signature.profile?.name == "softmodem-1225")
    }

    @Test("a burst after two seconds of a sound card's noise floor (-80 dBFS) is found")
    func afterNoiseFloor() throws {
        let bytes = Array("recorded for inspect\n".utf8)
        var signal =
            [Float](repeating: 0, count: 88_200) + (try TestSignals.encode(bytes, amplitude: 0.9, silence: 4410))
            + [Float](repeating: 0, count: 44_100)
        // Noise of amplitude 1e-4: before any quiet level is known it opens a "burst" that
        // is not a modem, and the receiver must come back from ignoring it.
        TestSignals.addNoise(&signal, snr: 76, signalPower: 0.405, seed: 12)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(receiver.detections)")
    }

    @Test(
        "a whistle warbling between two modem tones is not a modem",
        arguments: [(4900.0, 7350.0, 6.0), (1070, 1270, 11), (2450, 4900, 9)])
    func warble(low: Double, high: Double, rate: Double) throws {
        let half = Int(44_100 / (2 * rate))
        var signal: [Float] = []
        var phase = 0.0
        for k in 0..<(5 * 44_100) {
            let f = (k / half) % 2 == 0 ? low : high
            phase += 2 * Double.pi * f / 44_100
            signal.append(0.3 * Float(Double.sin(phase)))
        }
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got.isEmpty, "\(got.count) bytes: \(receiver.detections)")
    }
}
