import BoardModels
import ModemDSP
import Testing

/// Issue 3: five minutes of white noise and two minutes of noise with tones sweeping through
/// the modem band print at most 1 byte in total at default settings. Generated and decoded
/// in one-second chunks, so memory stays flat.
@Suite("False decodes on noise")
struct FalseDecodeTests {
    /// Bytes `FSKDemodulator` reports over `seconds` of noise (plus optional sweeping tones).
    static func falseBytes(seconds: Int, seed: UInt64, noiseDBFS: Double, tones: [ToneGenerator]) throws -> Int {
        let rate = 44_100.0
        var demod = try FSKDemodulator(DemodulatorConfiguration())
        var noise = WhiteNoiseChannel(levelDBFS: noiseDBFS, seed: seed)
        var tones = tones
        var chunk = [Float](repeating: 0, count: Int(rate))
        var events: [ModemEvent] = []
        var bytes = 0
        for _ in 0..<seconds {
            for i in chunk.indices { chunk[i] = 0 }
            noise.process(&chunk)
            for t in tones.indices { tones[t].process(&chunk) }
            events.removeAll(keepingCapacity: true)
            chunk.withUnsafeBufferPointer { demod.process($0, into: &events) }
            bytes += events.count { $0.kind == .byte }
        }
        events.removeAll()
        demod.flush(into: &events)
        return bytes + events.count { $0.kind == .byte }
    }

    @Test("5 minutes of white noise and 2 minutes of noise with sweeping tones: at most 1 byte")
    func noise() throws {
        let white = try Self.falseBytes(seconds: 300, seed: 1, noiseDBFS: -20, tones: [])
        let rate = 44_100.0
        let sweeps = [
            ToneGenerator(sweepingFrom: 3_000, to: 9_000, sweepSeconds: 1.7, amplitude: 0.2, sampleRate: rate),
            ToneGenerator(sweepingFrom: 4_000, to: 8_000, sweepSeconds: 11, amplitude: 0.1, sampleRate: rate),
        ]
        let swept = try Self.falseBytes(seconds: 120, seed: 2, noiseDBFS: -25, tones: sweeps)
        #expect(white + swept <= 1, "white noise: \(white) bytes, noise with sweeping tones: \(swept) bytes")
    }
}
