import Benchmark
import ModemDSP
import ModemTestSupport

/// A HiJack (Manchester) signal at the board's bit rate, as the phone's microphone input
/// receives it, and the bytes it carries.
final class HiJackCapture: Sendable {
    let samples: [Float]
    let sampleRate: Double
    let bytes: [UInt8]

    /// `seconds` of back-to-back HiJack characters (start, 8 data, parity, idle) at
    /// ``HiJack/boardBaud``, made with the host encoder set to the board's rate.
    init(rate: Double, seconds: Double, snr: Double? = nil) throws {
        let bytePeriod = HiJack.frameBits + HiJack.minimumIdleBits
        let bytesPerSecond = HiJack.boardBaud / Double(bytePeriod)
        let bytes = TestSignals.randomBytes(Int(seconds * bytesPerSecond) - 1, seed: 11)
        var out = try HiJackSignals.hostSignal(bytes, sampleRate: rate, bytePeriod: bytePeriod, baud: HiJack.boardBaud,
                                               amplitude: 0.5, idleBits: 16)
        if let snr { TestSignals.addNoise(&out, snr: snr, signalPower: TestSignals.power(out), seed: 12) }
        samples = out
        sampleRate = rate
        self.bytes = bytes
    }

    var seconds: Double { Double(samples.count) / sampleRate }
}

/// Streaming HiJack decoding; like the FSK benchmarks, the decoder is created and the event
/// list reserved before the measurement, so the measured loop must not allocate.
func hijackDecoding(_ name: String, rate: Double, snr: Double?, seconds: Double) {
    Benchmark(name) { (benchmark, capture: HiJackCapture) in
        var decoder = try! HiJackDecoder(sampleRate: capture.sampleRate)
        var events: [ModemEvent] = []
        events.reserveCapacity(2 * capture.bytes.count + 1024)
        var meter = RealTimeMeter()
        meter.begin(benchmark)
        capture.samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(chunkSamples, all.count - i)
                decoder.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), into: &events)
                i += n
            }
        }
        meter.end(benchmark, audioSeconds: capture.seconds)
        blackHole(events.count)
    } setup: {
        let capture = try HiJackCapture(rate: rate, seconds: seconds, snr: snr)
        if snr == nil { try SignalCheck.hijack(name, capture) }
        return capture
    }
}
