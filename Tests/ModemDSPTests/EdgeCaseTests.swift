import ModemDSP
import Testing

/// Special values and extremes for the demodulator: levels, clipping, polarity, NaN and
/// infinities, silence, empty input, invalid configurations.
@Suite("demodulator edge cases")
struct EdgeCaseTests {
    static let bytes = TestSignals.randomBytes(200, seed: 99)

    @Test("levels from -50 dBFS to full scale decode with no level setting", arguments: [-50.0, -30, -10, 0])
    func levels(dBFS: Double) throws {
        let amplitude = Float(TestSignals.pow10(dBFS / 20))
        let signal = try TestSignals.encode(Self.bytes, amplitude: amplitude, silence: 4410)
        #expect(try TestSignals.decode(signal) == Self.bytes)
    }

    @Test("hard clipping and inverted polarity")
    func clippedInverted() throws {
        let signal = try TestSignals.encode(Self.bytes, amplitude: 1, silence: 4410).map { -max(-0.2, min(0.2, $0)) * 4 }
        #expect(try TestSignals.decode(signal) == Self.bytes)
    }

    @Test("NaN and infinities between bursts are ignored and decoding resumes")
    func specialValues() throws {
        var signal = try TestSignals.encode(Array(Self.bytes[0..<100]), amplitude: 0.5, silence: 2000)
        signal += [Float.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .nan]
        signal += [Float](repeating: .nan, count: 500)
        signal += try TestSignals.encode(Array(Self.bytes[100...]), amplitude: 0.5, silence: 2000)
        #expect(try TestSignals.decode(signal) == Self.bytes)
    }

    @Test("silence, empty input and a lone click produce nothing")
    func nothing() throws {
        var demod = try FSKDemodulator(DemodulatorConfiguration())
        var events: [DemodulatorEvent] = []
        let empty: [Float] = []
        empty.withUnsafeBufferPointer { demod.process($0, into: &events) }
        let silence = [Float](repeating: 0, count: 44_100)
        silence.withUnsafeBufferPointer { demod.process($0, into: &events) }
        var click = [Float](repeating: 0, count: 44_100)
        click[1000] = 1
        click.withUnsafeBufferPointer { demod.process($0, into: &events) }
        demod.flush(into: &events)
        #expect(events.isEmpty)
        #expect(demod.samplesConsumed == 88_200, "flush padding is not input")
    }

    @Test("a copied demodulator keeps its own state (value semantics)")
    func valueSemantics() throws {
        let signal = try TestSignals.encode(Self.bytes, amplitude: 0.5, silence: 2000)
        var a = try FSKDemodulator(DemodulatorConfiguration())
        var events: [DemodulatorEvent] = []
        let half = signal.count / 2
        signal.withUnsafeBufferPointer { a.process(UnsafeBufferPointer(rebasing: $0[0..<half]), into: &events) }
        var b = a  // shares storage until one of them writes
        var eventsA = events, eventsB = events
        // b writes first; were the storage shared, a would then read b's zeros as its own
        // history and lose the characters spanning the split.
        let zeros = [Float](repeating: 0, count: signal.count - half)
        zeros.withUnsafeBufferPointer { b.process($0, into: &eventsB) }
        signal.withUnsafeBufferPointer { a.process(UnsafeBufferPointer(rebasing: $0[half...]), into: &eventsA) }
        a.flush(into: &eventsA)
        b.flush(into: &eventsB)
        #expect(eventsA.filter { $0.kind == .byte }.map(\.value) == Self.bytes)
        #expect(eventsB.filter { $0.kind == .byte }.count < Self.bytes.count)
    }

    @Test("impossible configurations throw instead of trapping", arguments: [
        DemodulatorConfiguration(profile: .softmodem1225, sampleRate: 8_000),
        DemodulatorConfiguration(profile: ModemProfile.softmodem1225.overriding(mark: 4900), sampleRate: 44_100),
        DemodulatorConfiguration(profile: ModemProfile.softmodem1225.overriding(baud: .nan), sampleRate: 44_100),
        DemodulatorConfiguration(profile: .softmodem1225, sampleRate: 1e9),
        DemodulatorConfiguration(profile: .softmodem1225, squelch: .infinity),
    ])
    func invalid(configuration: DemodulatorConfiguration) {
        #expect(throws: ModemConfigurationError.self) { try FSKDemodulator(configuration) }
    }

    @Test("frame format limits")
    func frameLimits() throws {
        #expect(throws: ModemConfigurationError.self) { try FrameFormat(dataBits: 4) }
        #expect(throws: ModemConfigurationError.self) { try FrameFormat(dataBits: 9) }
        #expect(throws: ModemConfigurationError.self) { try FrameFormat(stopBits: 3) }
        #expect(FrameFormat.eightN1.wireBits(for: 0x55) == 0b1_0101_0101_0)
        #expect(try FrameFormat(dataBits: 7, parity: .even).wireBits(for: 0x03) == 0b1_0_0000011_0)
    }
}
