import Benchmark
import BoardModels
import ModemDSP

/// A HiJack (Manchester) signal at the board's bit rate, and the bytes it carries.
final class HiJackCapture: Sendable {
    let samples: [Float]
    let sampleRate: Double
    let bytes: [UInt8]

    /// `seconds` of HiJack traffic at ``HiJack/boardBaud`` from the shared
    /// ``TrafficGenerator``, bursts and rests as in ``Signals/traffic``: each character's 10
    /// cells and the 4 idle cells the board needs, the data channel of the host transmitter
    /// set to the board's rate.
    init(rate: Double, seconds: Double, snr: Double? = nil) throws {
        let encoder = try HiJackEncoder(
            sampleRate: rate, baud: HiJack.boardBaud,
            bytePeriod: HiJack.frameBits + HiJack.minimumIdleBits, amplitude: 0.5)
        let tone = try HiJackPowerTone(frequency: HiJack.defaultPowerTone(sampleRate: rate), sampleRate: rate)
        var generator = TrafficGenerator(
            transmitter: try HiJackTransmitter(encoder: encoder, tone: tone),
            burstBytes: Signals.burstBytes, gapSeconds: Signals.gap, seed: 11)
        let traffic = generator.signal(frames: Int(seconds * rate))
        var out = traffic.samples
        if let snr { TestSignals.addNoise(&out, snr: snr, signalPower: traffic.burstPower, seed: 12) }
        samples = out
        sampleRate = rate
        self.bytes = traffic.bytes
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
