import Benchmark
import ModemDSP

/// UART deframing alone: the signal is mixed into segments in setup (`mixSegments`), and
/// the measured region runs only what follows the mixer (`process(mixed:)`): the per-segment
/// high-pass and running sums, the start-bit hunt, the bit clock, the alignment search and
/// the bit decisions. Against `Demodulate-...`, the difference is the mixer's cost.
func deframing(_ name: String, _ profile: ModemProfile, rate: Double, snr: Double?, seconds: Double) {
    Benchmark(name) { (benchmark, mixed: MixedCapture) in
        var demodulator = try! FSKDemodulator(
            DemodulatorConfiguration(profile: mixed.capture.profile, sampleRate: mixed.capture.sampleRate))
        var events: [ModemEvent] = []
        events.reserveCapacity(2 * mixed.capture.bytes.count + 1024)
        var meter = RealTimeMeter()
        meter.begin(benchmark)
        mixed.segments.withUnsafeBufferPointer { demodulator.process(mixed: $0, into: &events) }
        meter.end(benchmark, audioSeconds: mixed.capture.seconds)
        blackHole(events.count)
    } setup: {
        let capture = try Signals.traffic(profile: profile, rate: rate, seconds: seconds, snr: snr)
        let mixer = try FSKDemodulator(
            DemodulatorConfiguration(profile: capture.profile, sampleRate: capture.sampleRate))
        var segments = [FSKDemodulator.MixedSegment](
            repeating: .init(), count: capture.samples.count / mixer.segmentLength)
        let n = capture.samples.withUnsafeBufferPointer { s in
            segments.withUnsafeMutableBufferPointer { mixer.mixSegments(s, into: $0) }
        }
        segments.removeLast(segments.count - n)
        return MixedCapture(capture: capture, segments: segments)
    }
}

struct MixedCapture: Sendable {
    var capture: Capture
    var segments: [FSKDemodulator.MixedSegment]
}
