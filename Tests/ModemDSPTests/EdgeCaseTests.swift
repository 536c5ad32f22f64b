import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// Special values and extremes for the demodulator: levels, clipping, polarity, NaN and
/// infinities, silence, empty input, invalid configurations.
@Suite("demodulator edge cases")
struct EdgeCaseTests {
    static let bytes = TestSignals.randomBytes(200, seed: 99)

    @Test("levels from -50 dBFS to full scale decode with no level setting", arguments: [-50.0, -30, -10, 0])
    func levels(dBFS: Double) throws {
        let amplitude = Float(Decibels.linear(dBFS))
        let signal = try TestSignals.encode(Self.bytes, amplitude: amplitude, silence: 4410)
        #expect(try TestSignals.decode(signal) == Self.bytes)
    }

    @Test("hard clipping and inverted polarity")
    func clippedInverted() throws {
        let signal = try TestSignals.encode(Self.bytes, amplitude: 1, silence: 4410).map {
            -max(-0.2, min(0.2, $0)) * 4
        }
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
        var events: [ModemEvent] = []
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
        var events: [ModemEvent] = []
        let half = signal.count / 2
        signal.withUnsafeBufferPointer { a.process(UnsafeBufferPointer(rebasing: $0[0..<half]), into: &events) }
        var b = a  // shares storage until one of them writes
        var eventsA = events
        var eventsB = events
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

    @Test(
        "impossible configurations throw instead of trapping",
        arguments: [
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

@Suite("mixing and deframing split")
struct MixedSegmentTests {
    @Test("process(mixed:) after mixSegments gives exactly the events of process(_:)", arguments: [44_100.0, 48_000])
    func splitMatches(rate: Double) throws {
        let bytes = TestSignals.randomBytes(300, seed: 12)
        var signal = try TestSignals.encode(bytes, rate: rate, amplitude: 0.4, silence: 3000)
        TestSignals.addNoise(&signal, snr: 3, signalPower: 0.08, seed: 2)
        let config = DemodulatorConfiguration(sampleRate: rate)
        var whole = try FSKDemodulator(config)
        var split = try FSKDemodulator(config)
        var a: [ModemEvent] = []
        var b: [ModemEvent] = []
        signal.withUnsafeBufferPointer { whole.process($0, into: &a) }
        let segmentCount = signal.count / split.segmentLength
        var mixed = [FSKDemodulator.MixedSegment](repeating: .init(), count: segmentCount)
        let n = signal.withUnsafeBufferPointer { s in
            mixed.withUnsafeMutableBufferPointer { split.mixSegments(s, into: $0) }
        }
        #expect(n == segmentCount)
        mixed.withUnsafeBufferPointer { split.process(mixed: $0, into: &b) }
        // Same characters at the same samples; the two loops may round a multiply-add
        // differently, so measured levels agree to rounding, not bit for bit.
        #expect(
            a.map { "\($0.kind) \($0.value) \($0.startSample) \($0.endSample)" }
                == b.map { "\($0.kind) \($0.value) \($0.startSample) \($0.endSample)" })
        #expect(zip(a, b).allSatisfy { abs($0.fsk!.ebN0 - $1.fsk!.ebN0) < 1e-3 })
        #expect(a.filter { $0.kind == .byte }.map(\.value) == bytes)
    }

    /// The modulator takes a linear amplitude, and says so when it is out of range (it used
    /// to report a linear 2 as "2.0 dBFS must be between -120 and 0").
    @Test("an amplitude outside 0...1 is refused in linear terms", arguments: [2.0, -0.5, .nan])
    func linearAmplitudeOutOfRange(amplitude: Double) {
        do {
            _ = try FSKModulator(profile: .softmodem1225, sampleRate: 44_100, amplitude: Float(amplitude))
            Issue.record("amplitude \(amplitude) was accepted")
        } catch {
            #expect(error == .invalidLinearAmplitude(amplitude) || amplitude.isNaN)
            #expect(error.description.hasSuffix("must be between 0 and 1 (full scale)"))
        }
    }
}
