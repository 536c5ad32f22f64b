import Benchmark
import ModemDSP

/// Samples handed to the demodulator per call, as `softmodem decode` does.
let chunkSamples = 4096

/// Feeds `samples` to `demodulator` in `chunkSamples` chunks.
@inline(__always)
func demodulate(
    _ samples: UnsafeBufferPointer<Float>, _ demodulator: inout FSKDemodulator,
    _ events: inout [ModemEvent]
) {
    var i = 0
    while i < samples.count {
        let n = min(chunkSamples, samples.count - i)
        demodulator.process(UnsafeBufferPointer(rebasing: samples[i..<(i + n)]), into: &events)
        i += n
    }
}

/// Streaming demodulation of generated traffic. The demodulator is created and the event
/// list reserved before the measurement starts, so the measured region is the steady
/// state only and must not allocate.
func demodulation(_ name: String, _ profile: ModemProfile, rate: Double, snr: Double?, seconds: Double) {
    Benchmark(name) { (benchmark, capture: Capture) in
        var demodulator = try! FSKDemodulator(
            DemodulatorConfiguration(profile: capture.profile, sampleRate: capture.sampleRate))
        var events: [ModemEvent] = []
        events.reserveCapacity(2 * capture.bytes.count + 1024)
        var meter = RealTimeMeter()
        meter.begin(benchmark)
        capture.samples.withUnsafeBufferPointer { demodulate($0, &demodulator, &events) }
        meter.end(benchmark, audioSeconds: capture.seconds)
        blackHole(events.count)
    } setup: {
        let capture = try Signals.traffic(profile: profile, rate: rate, seconds: seconds, snr: snr)
        if snr == nil { try SignalCheck.fsk(name, capture) }
        return capture
    }
}

/// Digital silence: the per-sample mixer and segment bookkeeping with nothing to search,
/// the floor under every other demodulation figure.
func idleDemodulation(_ name: String, rate: Double, seconds: Double) {
    Benchmark(name) { (benchmark, capture: Capture) in
        var demodulator = try! FSKDemodulator(
            DemodulatorConfiguration(profile: capture.profile, sampleRate: capture.sampleRate))
        var events: [ModemEvent] = []
        events.reserveCapacity(1024)
        var meter = RealTimeMeter()
        meter.begin(benchmark)
        capture.samples.withUnsafeBufferPointer { demodulate($0, &demodulator, &events) }
        meter.end(benchmark, audioSeconds: capture.seconds)
        blackHole(events.count)
    } setup: {
        Capture(
            samples: [Float](repeating: 0, count: Int(seconds * rate)), sampleRate: rate,
            profile: .softmodem1225, bytes: [])
    }
}
