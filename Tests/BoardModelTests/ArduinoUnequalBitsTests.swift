import BoardModels
import CommandLineText
import ModemDSP
import ModemTestSupport
import Testing

/// The Arduino's mark and space bits differ in length at 126, 315 and 630 baud (the timer
/// rounds each tone's cycle, and a bit is a whole number of cycles). Long bursts of the
/// payloads that stress that most (runs of 0x00, which are nearly all space bits, runs of
/// 0xFF, nearly all mark, alternating bits, random) must decode exactly, detected and pinned.
@Suite("Arduino's unequal mark and space bits")
struct ArduinoUnequalBitsTests {
    static let profiles: [ModemProfile] = [.softmodem126, .softmodem315, .softmodem630]

    /// One long write of each worst-case payload, with a pause between writes.
    static func payloads(_ count: Int) -> [(name: String, bytes: [UInt8])] {
        [
            ("0x00 run", [UInt8](repeating: 0x00, count: count)),
            ("0xFF run", [0x41] + [UInt8](repeating: 0xFF, count: count - 2) + [0x42]),
            ("alternating 0x55", [UInt8](repeating: 0x55, count: count)),
            ("0x00/0xFF pairs", (0..<count).map { $0 % 2 == 0 ? 0x00 : 0xFF }),
            ("random", Models.randomBytes(count, seed: 77)),
        ]
    }

    static func signal(_ bytes: [UInt8], profile: ModemProfile) -> [Float] {
        Models.arduinoBursts(bytes, piece: bytes.count, gapsMicroseconds: [300_000], profile: profile)
    }

    static func count(_ profile: ModemProfile) -> Int { profile.baud < 200 ? 60 : 150 }

    @Test("the timer arithmetic gives each rate's mark and space bit lengths")
    func bitLengths() throws {
        let expected: [(ModemProfile, Int, Int)] = [
            (.softmodem126, 7168, 7616), (.softmodem315, 3040, 3120), (.softmodem630, 1520, 1560),
            (.softmodem1225, 816, 816), (.softmodem2450, 408, 408),
        ]
        for (profile, mark, space) in expected {
            let timing = try #require(ArduinoSoftModemTiming(profile: profile))
            #expect(timing.markBitMicroseconds == mark && timing.spaceBitMicroseconds == space, "\(profile.name)")
        }
    }

    @Test("pinned to the profile, each payload decodes exactly", arguments: profiles)
    func pinned(profile: ModemProfile) throws {
        for (name, bytes) in Self.payloads(Self.count(profile)) {
            let decoded = try Models.demodulate(Self.signal(bytes, profile: profile), profile: profile)
            #expect(decoded == bytes, "\(profile.name) \(name): \(Models.mismatch(bytes, decoded))")
        }
    }

    @Test("pinned to the board's mean bit rate and real tones, each payload decodes exactly", arguments: profiles)
    func pinnedActual(profile: ModemProfile) throws {
        let actual = ArduinoSoftModemTiming(profile: profile)!.actualProfile
        for (name, bytes) in Self.payloads(Self.count(profile)) {
            let decoded = try Models.demodulate(Self.signal(bytes, profile: profile), profile: actual)
            #expect(decoded == bytes, "\(profile.name) \(name): \(Models.mismatch(bytes, decoded))")
        }
    }

    @Test("with no options, each run decodes exactly and the profile is detected", arguments: profiles)
    func detected(profile: ModemProfile) throws {
        // A burst that is one run from its first character is ambiguous to any detector: a
        // stream of 0x55 is a square wave that frames as 8N1 or 6N1 at any space bit, 0xFF
        // is 0x00 with mark and space swapped, 0x00 is valid 7E1 too. Real text first lets
        // the data decide the format, as a sketch's output does; the run then tests the clock.
        let lead = Models.randomBytes(16, seed: 78)
        for (name, run) in Self.payloads(Self.count(profile)) {
            let bytes = lead + run
            let s = Self.signal(bytes, profile: profile)
            var receiver = try AutoReceiver(sampleRate: 44_100)
            var events: [ModemEvent] = []
            TestSignals.feed(s, chunk: 1500) { receiver.process($0, into: &events) }
            receiver.flush(into: &events)
            let decoded = events.filter { $0.kind == .byte }.map(\.value)
            #expect(
                decoded == bytes, "\(profile.name) \(name): \(Models.mismatch(bytes, decoded)) \(receiver.detections)")
            let timing = try #require(ArduinoSoftModemTiming(profile: profile))
            let d = try #require(receiver.detections.first)
            #expect(receiver.detections.count == 1, "\(receiver.detections)")
            // The profiles are what the board sends (its header's values are 7 % slow and
            // 11 % low at 126 baud).
            #expect(d.signature.profile?.name == profile.name, "\(d)")
            #expect(abs(d.signature.baud / timing.actualBaud - 1) < (profile == .softmodem126 ? 0.01 : 0.05), "\(d)")
            let bits = try #require(d.signature.toneBits?.seconds(markIsUpper: true), "\(d)")
            #expect(abs(bits.mark / (Double(timing.markBitMicroseconds) * 1e-6) - 1) < 0.01, "\(d)")
            #expect(abs(bits.space / (Double(timing.spaceBitMicroseconds) * 1e-6) - 1) < 0.01, "\(d)")
            #expect(d.text.contains("; mark bits "), "\(d.text)")
        }
    }

    @Test("at 1225 and 2450 baud the bits are equal and reported as one rate")
    func equalBits() throws {
        for profile in [ModemProfile.softmodem1225, .softmodem2450] {
            let bytes = Models.randomBytes(200, seed: 79)
            var receiver = try AutoReceiver(sampleRate: 44_100)
            var events: [ModemEvent] = []
            TestSignals.feed(Self.signal(bytes, profile: profile), chunk: 1500) { receiver.process($0, into: &events) }
            receiver.flush(into: &events)
            #expect(events.filter { $0.kind == .byte }.map(\.value) == bytes, "\(profile.name)")
            #expect(receiver.detections.map(\.signature.toneBits) == [nil], "\(receiver.detections)")
        }
    }
}
