import ModemDSP
import Testing

/// How a decoder ends an input that stops in mid-tone, as minimodem's files do (its last
/// stop bit and a little idle mark, then nothing): no phantom character from the cut, while a
/// character the cut really broke is still reported.
@Suite struct InputEndTests {
    /// `bytes` in 8N1 after 20 bits of mark, then `idleBits` of mark, with nothing after it.
    static func signal(_ bytes: [UInt8], profile: ModemProfile, rate: Double, idleBits: Double) throws -> [Float] {
        var modulator = try FSKModulator(profile: profile, sampleRate: rate)
        var out = [Float](repeating: 0, count: modulator.maxSamples(forBits: 40 + bytes.count * 10))
        var n = 0
        out.withUnsafeMutableBufferPointer { b in
            for _ in 0..<20 { n += modulator.render(bit: true, into: b.baseAddress! + n) }
            for byte in bytes {
                // Start bit 0, the data LSB first, stop bit 1.
                n += modulator.render(bits: UInt32(byte) << 1 | 1 << 9, count: 10, into: b.baseAddress! + n)
            }
            for _ in 0..<Int(idleBits.rounded(.up)) { n += modulator.render(bit: true, into: b.baseAddress! + n) }
        }
        let bit = rate / profile.baud
        return Array(out[0..<(n - Int((idleBits.rounded(.up) - idleBits) * bit))])
    }

    static func decode(_ samples: [Float], profile: ModemProfile, rate: Double) throws -> [ModemEvent] {
        var demodulator = try FSKDemodulator(DemodulatorConfiguration(profile: profile, sampleRate: rate))
        var events: [ModemEvent] = []
        samples.withUnsafeBufferPointer { demodulator.process($0, into: &events) }
        demodulator.flush(into: &events)
        return events
    }

    @Test(arguments: [(ModemProfile.bell103, 48_000.0), (.bell202, 48_000), (.softmodem1225, 44_100)])
    func aCutInTheIdleMarkLeavesNoPhantomCharacter(profile: ModemProfile, rate: Double) throws {
        let text = Array("lazy dog 10\n".utf8)
        for eighths in 1...24 {
            let samples = try Self.signal(text, profile: profile, rate: rate, idleBits: Double(eighths) / 8)
            let events = try Self.decode(samples, profile: profile, rate: rate)
            #expect(events.map(\.kind) == Array(repeating: .byte, count: text.count), "idle \(eighths)/8 bit")
            #expect(events.map(\.value) == text, "idle \(eighths)/8 bit")
        }
    }

    @Test func aCharacterTheCutBrokeIsStillReported() throws {
        let text = Array("ab".utf8)
        let full = try Self.signal(text, profile: .bell103, rate: 48_000, idleBits: 0)
        // Half of the last character's ten bits: its start bit and four data bits are there.
        let cut = Array(full.dropLast(5 * 160))
        let events = try Self.decode(cut, profile: .bell103, rate: 48_000)
        #expect(events.first?.kind == .byte && events.first?.value == text[0])
        #expect(events.count == 2 && events.last?.kind == .framingError, "\(events.map(\.kind))")
    }
}
