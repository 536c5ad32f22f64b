import BoardModels
import ModemTestSupport
import Testing

@testable import ModemDSP

/// 7 data bits or 8: an 8N1 character with its top bit set is a 7-bit character followed by
/// mark, so a burst of them proves neither format by its line (``FormatProofTests``). The
/// burst is read both ways (``BurstReadings``) and printed only when it decides: a later
/// character breaks one reading, or the characters are text or UTF-8 (``TopBitContent``).
@Suite struct TopBitTests {
    /// `values` as a 1225-baud line after 40 bits of mark, character k in `formats[k]`
    /// followed by `gaps[k]` idle bits, then 20 bits of mark and 0.2 s of silence.
    static func line(_ values: [UInt8], formats: [FrameFormat], gaps: [Int]) throws -> [Float] {
        var modulator = try FSKModulator(profile: .softmodem1225, sampleRate: 44_100)
        let bits = 60 + zip(formats, gaps).reduce(0) { $0 + $1.0.bitsPerFrame + $1.1 }
        var out = [Float](repeating: 0, count: modulator.maxSamples(forBits: bits) + 8820)
        var n = 8820
        out.withUnsafeMutableBufferPointer { b in
            for _ in 0..<40 { n += modulator.render(bit: true, into: b.baseAddress! + n) }
            for (k, v) in values.enumerated() {
                let f = formats[k]
                n += modulator.render(bits: f.wireBits(for: v), count: f.bitsPerFrame, into: b.baseAddress! + n)
                for _ in 0..<gaps[k] { n += modulator.render(bit: true, into: b.baseAddress! + n) }
            }
            for _ in 0..<20 { n += modulator.render(bit: true, into: b.baseAddress! + n) }
        }
        return Array(out[0..<n]) + [Float](repeating: 0, count: 8820)
    }

    static let sevenN1 = try! FrameFormat(dataBits: 7)
    static let sevenN2 = try! FrameFormat(dataBits: 7, stopBits: 2)

    /// Random printable ASCII.
    static func text(_ count: Int, seed: UInt64) -> [UInt8] {
        TestSignals.randomBytes(count, seed: seed).map { 0x20 + $0 % 95 }
    }

    @Test("8N1 binary with every top bit set: nothing printed, the format unproven")
    func binaryWithTheTopBitSetIsNotPrinted() throws {
        let bytes = TestSignals.randomBytes(200, seed: 3).map { $0 | 0x80 }
        let signal = try TestSignals.encode(bytes, amplitude: 0.4, silence: 8000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got.isEmpty, "printed \(got.prefix(8))")
        #expect(receiver.detections.map(\.formatEvidence) == [.unproven])
    }

    @Test("7N2 binary: nothing printed either (the same line)")
    func sevenBitBinaryIsNotPrinted() throws {
        let bytes = TestSignals.randomBytes(200, seed: 4).map { $0 & 0x7F }
        let signal = try TestSignals.encode(bytes, amplitude: 0.4, format: Self.sevenN2, silence: 8000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got.isEmpty, "printed \(got.prefix(8))")
        #expect(receiver.detections.map(\.formatEvidence) == [.unproven])
    }

    @Test("UTF-8 text in a script other than Latin, every byte 0x80 or above: 8N1, exactly")
    func japaneseTextIsEightBits() throws {
        let bytes = Array("こんにちは世界。これは音声モデムの試験です。日本語の文字だけを送ります。".utf8)
        #expect(bytes.allSatisfy { $0 >= 0x80 })
        let signal = try TestSignals.encode(bytes, amplitude: 0.4, silence: 8000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes)
        #expect(receiver.detections.map(\.format) == [.eightN1])
        #expect(receiver.detections.map(\.formatEvidence) == [.wholeBurst])
    }

    @Test("7N2 text: 7 data bits, exactly", arguments: [ModemProfile.softmodem1225, .bell202, .bell103])
    func sevenBitTextIsSevenBits(profile: ModemProfile) throws {
        let bytes = Self.text(120, seed: 5)
        let signal = try TestSignals.encode(
            bytes, profile: profile, amplitude: 0.4, format: Self.sevenN2, silence: 8000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(receiver.detections)")
        #expect(receiver.detections.map(\.format) == [Self.sevenN2])
    }

    @Test("the top bit set for 60 characters, then not: the 7-bit reading breaks, 8N1 exactly")
    func aLaterClearTopBitDecides() throws {
        let bytes = TestSignals.randomBytes(60, seed: 6).map { $0 | 0x80 } + TestSignals.randomBytes(60, seed: 7)
        let signal = try TestSignals.encode(bytes, amplitude: 0.4, silence: 8000)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes)
        #expect(receiver.detections.map(\.format) == [.eightN1])
    }

    @Test("7N1 binary one idle bit apart, then back to back: the 8N1 reading breaks, 7N1 exactly")
    func aLaterCharacterWithoutAGapDecides() throws {
        let bytes = TestSignals.randomBytes(120, seed: 8).map { $0 & 0x7F }
        let gaps = (0..<120).map { $0 < 60 ? 1 : 0 }
        let signal = try Self.line(bytes, formats: Array(repeating: Self.sevenN1, count: 120), gaps: gaps)
        let (got, receiver) = try AutoReceiverTests.run(signal)
        #expect(got == bytes, "\(receiver.detections)")
        #expect(receiver.detections.map(\.format).first?.dataBits == 7)
    }
}

/// ``TopBitContent`` on characters alone.
@Suite struct TopBitContentTests {
    static func event(_ kind: ModemEvent.Kind, _ value: UInt8, at k: Int) -> ModemEvent {
        let metrics = FSKCharacterMetrics(
            signalPower: 0.1, noisePower: 0.001, ebN0Ratio: 100, markFrequency: 7350, spaceFrequency: 4900)
        let start = Int64(k) * 360
        return ModemEvent(
            kind: kind, value: value, startSample: start, endSample: start + 360, decidedAt: start + 360,
            metrics: .fsk(metrics))
    }

    static func events(_ values: [UInt8]) -> [ModemEvent] {
        values.enumerated().map { event(.byte, $1, at: $0) }
    }

    @Test func textChoosesSevenBitsAndUTF8ChoosesEight() {
        let text = Array("The quick brown fox jumps over the lazy dog.\r\n".utf8)
        #expect(TopBitContent.choice(seven: Self.events(text), eight: Self.events(text.map { $0 | 0x80 })) == .seven)
        let japanese = Array("日本語のテキストです".utf8)
        #expect(
            TopBitContent.choice(seven: Self.events(japanese.map { $0 & 0x7F }), eight: Self.events(japanese)) == .eight
        )
    }

    @Test func aRunOfOneCharacterStaysEightBits() {
        let ones = [UInt8](repeating: 0xFF, count: 40)
        #expect(TopBitContent.choice(seven: Self.events(ones.map { $0 & 0x7F }), eight: Self.events(ones)) == .eight)
    }

    @Test func tooShortOrNeitherChoosesNothing() {
        let short = Array("Too short, to say.".utf8)
        #expect(TopBitContent.choice(seven: Self.events(short), eight: Self.events(short.map { $0 | 0x80 })) == nil)
        let binary = TestSignals.randomBytes(100, seed: 1).map { $0 | 0x80 }
        #expect(TopBitContent.choice(seven: Self.events(binary.map { $0 & 0x7F }), eight: Self.events(binary)) == nil)
        // Three multibyte characters are not enough.
        #expect(!TopBitContent.isMultibyteUTF8(Array("日本語".utf8)))
        #expect(TopBitContent.isMultibyteUTF8(Array("日本語だ".utf8)))
        // An error event is not a character.
        var events = Self.events(Array(String(repeating: "The quick brown fox ", count: 2).utf8))
        events[3] = Self.event(.framingError, 0xFF, at: 3)
        #expect(TopBitContent.choice(seven: events, eight: []) == .seven)
    }
}
