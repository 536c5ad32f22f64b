import Benchmark
import ModemDSP

/// A HiJack (Manchester) signal at the board's bit rate, as the phone's microphone input
/// receives it, and the bytes it carries.
final class HiJackCapture: Sendable {
    let samples: [Float]
    let sampleRate: Double
    let bytes: [UInt8]

    /// `seconds` of back-to-back HiJack characters (start, 8 data, parity, idle) at
    /// ``HiJack/boardBaud``, made with the host encoder set to the board's rate.
    init(rate: Double, seconds: Double, snr: Double? = nil) throws {
        var encoder = try HiJackEncoder(sampleRate: rate, baud: HiJack.boardBaud,
                                        bytePeriod: HiJack.frameBits + HiJack.minimumIdleBits, amplitude: 0.5)
        let bytesPerSecond = HiJack.boardBaud / Double(HiJack.frameBits + HiJack.minimumIdleBits)
        var generator = SeededGenerator(seed: 11)
        let bytes = (0..<Int(seconds * bytesPerSecond) - 1).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var out = [Float](repeating: 0, count: 2 * encoder.maxSamples(forIdleBits: 16) + encoder.maxSamples(forBytes: bytes.count))
        let n = out.withUnsafeMutableBufferPointer { buffer in
            var n = encoder.idle(bits: 16, into: buffer.baseAddress!)
            n += bytes.withUnsafeBufferPointer { encoder.encode($0, into: buffer.baseAddress! + n) }
            n += encoder.idle(bits: 16, into: buffer.baseAddress! + n)
            return n
        }
        out.removeLast(out.count - n)
        if let snr {
            let power = out.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, out.count))
            var noise = GaussianNoise(standardDeviation: (power / Signals.powerRatio(decibels: snr)).squareRoot(), seed: 12)
            noise.add(to: &out)
        }
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
