import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// The decoder against the model of the board's transmitter (PROTOCOLS.md 2.3) through
/// realistic microphone paths.
@Suite struct BoardToHostTests {
    @Test(arguments: [
        (44_100.0, 22_050.0, false), (44_100.0, 22_050.0, true), (48_000.0, 21_000.0, true),
        (96_000.0, 21_000.0, false),
    ])
    func decodesThroughAHostileMicrophonePath(sampleRate: Double, powerTone: Double, invert: Bool) throws {
        let bytes = HiJackSignals.randomBytes(300, seed: 42)
        // AC coupling, 12 kHz band limit, power tone crosstalk as strong as half the data,
        // 4x gain into clipping.
        let path = HiJackMicrophonePath(
            sampleRate: sampleRate, couplingHz: 40, lowPassHz: 12_000, crosstalkHz: powerTone,
            crosstalkLevel: 0.15, gain: 4, clip: 0.7, invert: invert)
        let signal = HiJackSignals.boardSignal(bytes, sampleRate: sampleRate, path: path, level: 0.6)
        #expect(signal.contains { $0 >= 0.7 }, "the path clips")
        let (decoded, decoder, _) = try HiJackSignals.decode(signal, sampleRate: sampleRate)
        #expect(decoded == bytes)
        #expect(decoder.parityErrors == 0)
        #expect(decoder.framingErrors == 0)
        #expect(invert ? decoder.polarityScore < 0 : decoder.polarityScore > 0)
    }

    @Test(arguments: [1_300.0, 1_400.0, 1_489.45, 1_600.0, 1_700.0])
    func toleratesTheBitRate(baud: Double) throws {
        let bytes = HiJackSignals.randomBytes(60, seed: UInt64(baud))
        let signal = HiJackSignals.boardSignal(bytes, sampleRate: 44_100, baud: baud)
        let (decoded, _, events) = try HiJackSignals.decode(signal, sampleRate: 44_100)
        #expect(decoded == bytes)
        if let last = events.last?.hijack { #expect(abs(last.baud - baud) < 0.03 * baud) }
    }

    @Test(arguments: [(1_300.0, 44_100.0), (1_700.0, 44_100.0), (1_300.0, 96_000.0), (1_700.0, 48_000.0)])
    func bitRateExtremesThroughAHostilePath(baud: Double, sampleRate: Double) throws {
        let bytes = HiJackSignals.randomBytes(100, seed: UInt64(baud + sampleRate))
        let path = HiJackMicrophonePath(
            sampleRate: sampleRate, couplingHz: 40, crosstalkHz: HiJack.defaultPowerTone(sampleRate: sampleRate),
            crosstalkLevel: 0.15, gain: 4, clip: 0.7, invert: true)
        let signal = HiJackSignals.boardSignal(
            bytes, sampleRate: sampleRate, baud: baud, idleBits: 0, path: path, level: 0.6)
        let (decoded, decoder, _) = try HiJackSignals.decode(signal, sampleRate: sampleRate)
        #expect(decoded == bytes)
        #expect(decoder.parityErrors + decoder.framingErrors == 0)
    }

    @Test func framesWithASingleStopBitBackToBack() throws {
        let bytes = HiJackSignals.randomBytes(100, seed: 5) + [0x00, 0x00, 0xFF, 0xFF]
        let signal = HiJackSignals.boardSignal(bytes, sampleRate: 48_000, idleBits: 0)
        #expect(try HiJackSignals.decode(signal, sampleRate: 48_000).bytes == bytes)
    }

    @Test func decodesTheHostEncoderToo() throws {
        let bytes = HiJackSignals.randomBytes(30, seed: 9)
        let signal = try HiJackSignals.hostSignal(bytes, sampleRate: 44_100, bytePeriod: 14)
        #expect(try HiJackSignals.decode(signal, sampleRate: 44_100).bytes == bytes)
    }

    @Test func weakSignalWithNoise() throws {
        let bytes = HiJackSignals.randomBytes(100, seed: 8)
        var signal = HiJackSignals.boardSignal(bytes, sampleRate: 44_100, level: 0.05)
        var noise = GaussianNoise(standardDeviation: 0.003, seed: 1)
        for i in signal.indices { signal[i] += Float(noise.next()) }
        #expect(try HiJackSignals.decode(signal, sampleRate: 44_100).bytes == bytes)
    }

    @Test func badInputProducesNothingAndNeverTraps() throws {
        var decoder = try HiJackDecoder(sampleRate: 44_100)
        var events: [ModemEvent] = []
        let empty: [Float] = []
        empty.withUnsafeBufferPointer { decoder.process($0, into: &events) }
        let silence = [Float](repeating: 0, count: 44_100)
        silence.withUnsafeBufferPointer { decoder.process($0, into: &events) }
        let nans =
            [Float](repeating: .nan, count: 10_000) + [Float](repeating: .infinity, count: 100) + [
                -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            ]
        nans.withUnsafeBufferPointer { decoder.process($0, into: &events) }
        decoder.flush(into: &events)
        #expect(events.isEmpty)
        #expect(decoder.nonFiniteSamples == 10_101)

        // After garbage the decoder still works.
        let bytes: [UInt8] = Array("after NaN".utf8)
        let signal = HiJackSignals.boardSignal(bytes, sampleRate: 44_100)
        signal.withUnsafeBufferPointer { decoder.process($0, into: &events) }
        #expect(events.filter { $0.kind == .byte }.map(\.value) == bytes)
    }

    @Test func noiseAloneDecodesNothing() throws {
        var noise = GaussianNoise(standardDeviation: 0.3, seed: 2)
        let samples = (0..<441_000).map { _ in Float(noise.next()) }
        let (decoded, decoder, _) = try HiJackSignals.decode(samples, sampleRate: 44_100)
        // Random edges mimic a few idle 1s and pass a frame's checks now and then (10 s of
        // loud noise); no such frame is proven, so none is printed.
        #expect(decoded.isEmpty)
        #expect(decoder.unprovenFrames > 0)
    }

    /// Half bits of `bytes` after `lead` idle 1s, then 20 idle 1s, at 44.1 kHz.
    private func board(_ bytes: [UInt8], lead: Int) -> [Float] {
        var transmitter = HiJackBoardTransmitter(sampleRate: 44_100, idleBits: 1, level: 0.5)
        var samples = [Float](repeating: 0, count: 2_000)
        transmitter.render(transmitter.halfBits(for: bytes, leadingIdleBits: lead), into: &samples)
        transmitter.render(transmitter.halfBits(for: [], leadingIdleBits: 20), into: &samples)
        var line = HiJackMicrophonePath(sampleRate: 44_100)
        line.process(&samples)
        return samples
    }

    @Test func aFrameAfterAShortIdleIsProvenByTheNextFrame() throws {
        // Seven idle 1s (the first few lost to the path's AC coupling settling) prove
        // nothing alone (aLoneFrameIsPrintedAfterALongIdleOnly); the second frame does.
        let (decoded, decoder, _) = try HiJackSignals.decode(board([0x41, 0x42, 0x43], lead: 7), sampleRate: 44_100)
        #expect(decoded == [0x41, 0x42, 0x43])
        #expect(decoder.unprovenFrames == 0)
    }

    @Test func aLoneFrameIsPrintedAfterALongIdleOnly() throws {
        let long = try HiJackSignals.decode(board([0x41], lead: 12), sampleRate: 44_100)
        #expect(long.bytes == [0x41])
        let short = try HiJackSignals.decode(board([0x41], lead: 7), sampleRate: 44_100)
        #expect(short.bytes.isEmpty)
        #expect(short.decoder.unprovenFrames == 1)
    }
}
