import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// The demodulator's 16-bit input path must decide exactly what its float path decides on
/// the same samples converted (x / 32768): same events, to the last bit of every field.
@Suite("16-bit input")
struct PCM16InputTests {
    /// A burst at `amplitude` in noise, quantised to 16 bits, with full-scale extremes
    /// (-32768 and 32767) sprinkled in.
    static func signal(amplitude: Float, snr: Double, seed: UInt64) throws -> [Int16] {
        let bytes = TestSignals.randomBytes(300, seed: seed)
        var x = try TestSignals.encode(bytes, amplitude: amplitude, silence: 3000)
        TestSignals.addNoise(&x, snr: snr, signalPower: Double(amplitude * amplitude) / 2, seed: seed)
        var g = SeededGenerator(seed: seed)
        var pcm = x.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        for _ in 0..<20 { pcm[Int(g.next() % UInt64(pcm.count))] = g.next() % 2 == 0 ? .min : .max }
        return pcm
    }

    /// Events from feeding `pcm` in chunks whose lengths cycle through `chunks`, each as
    /// 16-bit samples or, where `asFloat` says so for the chunk's index, as their float
    /// conversion.
    static func events(_ pcm: [Int16], chunks: [Int], asFloat: (Int) -> Bool) throws -> [ModemEvent] {
        var demod = try FSKDemodulator(DemodulatorConfiguration())
        var events: [ModemEvent] = []
        let floats = pcm.map { Float($0) * (1.0 / 32768) }
        var i = 0
        var c = 0
        while i < pcm.count {
            let n = min(chunks[c % chunks.count], pcm.count - i)
            if asFloat(c) {
                floats.withUnsafeBufferPointer {
                    demod.process(UnsafeBufferPointer(rebasing: $0[i..<(i + n)]), into: &events)
                }
            } else {
                pcm.withUnsafeBufferPointer {
                    demod.process(UnsafeBufferPointer(rebasing: $0[i..<(i + n)]), into: &events)
                }
            }
            i += n
            c += 1
        }
        demod.flush(into: &events)
        return events
    }

    /// Field by field, doubles by bit pattern (unmeasured tones are NaN, which `==` never
    /// matches).
    static func identical(_ a: [ModemEvent], _ b: [ModemEvent]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.kind == y.kind && x.value == y.value && x.startSample == y.startSample && x.endSample == y.endSample
                    && x.decidedAt == y.decidedAt
                    && [
                        x.fsk!.signalPower, x.fsk!.noisePower, x.fsk!.ebN0Ratio, x.fsk!.markFrequency,
                        x.fsk!.spaceFrequency,
                    ].map(\.bitPattern)
                        == [
                            y.fsk!.signalPower, y.fsk!.noisePower, y.fsk!.ebN0Ratio, y.fsk!.markFrequency,
                            y.fsk!.spaceFrequency,
                        ].map(\.bitPattern)
            }
    }

    @Test(
        "same events as the float path, clean and at 3 dB SNR, whole and odd chunks",
        arguments: [(0.5 as Float, 40.0), (0.3, 3.0), (0.002, 10.0)])
    func matchesFloatPath(amplitude: Float, snr: Double) throws {
        let pcm = try Self.signal(amplitude: amplitude, snr: snr, seed: 11)
        for chunks in [[4096], [1, 7, 5, 1000, 3, 2], [6 * 333]] {
            let a = try Self.events(pcm, chunks: chunks, asFloat: { _ in false })
            let b = try Self.events(pcm, chunks: chunks, asFloat: { _ in true })
            #expect(!a.isEmpty)
            #expect(Self.identical(a, b), "chunks \(chunks)")
        }
    }

    @Test("16-bit and float chunks mixed in one stream decide as either alone")
    func mixedChunks() throws {
        let pcm = try Self.signal(amplitude: 0.4, snr: 6, seed: 12)
        let chunks = (0..<200).map { 1 + ($0 * 397) % 2000 }
        let mixed = try Self.events(pcm, chunks: chunks, asFloat: { $0 % 2 == 1 })
        #expect(Self.identical(mixed, try Self.events(pcm, chunks: [4096], asFloat: { _ in true })))
    }

    @Test("empty 16-bit chunks and full-scale square waves are harmless")
    func edgeCases() throws {
        var demod = try FSKDemodulator(DemodulatorConfiguration())
        var events: [ModemEvent] = []
        demod.process(UnsafeBufferPointer<Int16>(start: nil, count: 0), into: &events)
        let square = (0..<44_100).map { ($0 / 3) % 2 == 0 ? Int16.min : Int16.max }
        square.withUnsafeBufferPointer { demod.process($0, into: &events) }
        #expect(demod.samplesConsumed == 44_100)
    }
}
