import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// The demodulator's front end (period-table mixer, block passes, the unclipped fast path)
/// must give the same answer however the input is cut, and wherever clipping or NaN falls.
@Suite("demodulator front end")
struct FrontEndTests {
    /// Kind, value, position and the exact Eb/N0 bits: equal only if every sum was equal.
    private static func fingerprint(_ events: [ModemEvent]) -> [String] {
        events.map {
            "\($0.kind) \($0.value) \($0.startSample) \($0.endSample) \($0.decidedAt) \($0.fsk!.ebN0.bitPattern)"
        }
    }

    @Test(
        "chunk sizes change nothing, to the bit, with noise, clipping and NaN in the signal",
        arguments: [44_100.0, 48_000, 22_050])
    func chunkingIsExact(rate: Double) throws {
        let bytes = TestSignals.randomBytes(120, seed: 21)
        var signal = try TestSignals.encode(bytes, rate: rate, amplitude: 0.5, silence: 2000)
        TestSignals.addNoise(&signal, snr: 6, signalPower: 0.125, seed: 9)
        // Out-of-range and non-finite samples in a few places: the blocks holding them take the
        // clipping loop, the others the two-segment loop; both must agree.
        for (i, v) in [(1500, Float.nan), (9000, 7.5), (20_011, -Float.infinity), (33_333, -5)] where i < signal.count {
            signal[i] = v
        }
        let reference = Self.fingerprint(try TestSignals.events(signal, rate: rate, chunk: signal.count))
        // The damaged samples may cost a character or two; the point is what follows.
        #expect(reference.count >= bytes.count - 3)
        for chunk in [1, 5, 6, 7, 37, 4095, 4096, 10_007] {
            #expect(
                Self.fingerprint(try TestSignals.events(signal, rate: rate, chunk: chunk)) == reference,
                "chunk \(chunk)")
        }
    }

    @Test("a sender off the nominal tones decodes after retuning to them (rounded period table)")
    func retunedToOddTones() throws {
        // 7302.6 / 4898.3 Hz share no short period with 44.1 kHz: the mixer rounds them to
        // whole cycles over its table and must still decode them exactly.
        var profile = ModemProfile.softmodem1225
        profile.mark = 7302.6
        profile.space = 4898.3
        let bytes = TestSignals.randomBytes(400, seed: 5)
        let signal = try TestSignals.encode(bytes, profile: profile, silence: 3000)
        var demod = try FSKDemodulator(DemodulatorConfiguration())
        try demod.retune(mark: 7302.6, space: 4898.3)
        var events: [ModemEvent] = []
        signal.withUnsafeBufferPointer { demod.process($0, into: &events) }
        demod.flush(into: &events)
        #expect(events.filter { $0.kind == .byte }.map(\.value) == bytes)
    }

    @Test("retuning in the middle of a segment keeps the time base")
    func retuneMidSegmentKeepsTime() throws {
        let bytes = TestSignals.randomBytes(50, seed: 8)
        let burst = try TestSignals.encode(bytes, silence: 0)
        let gap = [Float](repeating: 0, count: 4001)  // not a whole number of segments
        let signal = gap + burst
        var demod = try FSKDemodulator(DemodulatorConfiguration())
        var events: [ModemEvent] = []
        signal.withUnsafeBufferPointer { all in
            demod.process(UnsafeBufferPointer(rebasing: all[0..<gap.count]), into: &events)
        }
        try demod.retune(mark: 7350, space: 4900)  // same tones, new table, mid-segment
        signal.withUnsafeBufferPointer { all in
            demod.process(UnsafeBufferPointer(rebasing: all[gap.count...]), into: &events)
        }
        demod.flush(into: &events)
        let decoded = events.filter { $0.kind == .byte }
        #expect(decoded.map(\.value) == bytes)
        // The first character starts after the 50-bit preamble: 36 samples a bit at 1225 baud.
        let expectedStart = Int64(gap.count + 50 * 36)
        #expect(
            abs((decoded.first?.startSample ?? 0) - expectedStart) <= 6, "start \(decoded.first?.startSample ?? -1)")
    }
}
