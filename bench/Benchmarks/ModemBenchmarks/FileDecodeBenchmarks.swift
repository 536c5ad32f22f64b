import Benchmark
import ModemAudioIO
import ModemDSP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 16-bit WAV file written in setup and removed when the benchmark object goes away.
final class WAVFixture: Sendable {
    let path: String
    let seconds: Double

    init(_ capture: Capture) throws {
        path = "/tmp/softmodem-bench-\(getpid())-\(Int(capture.sampleRate))-\(capture.samples.count).wav"
        let writer = try WAVStreamWriter(path: path, sampleRate: Int(capture.sampleRate), channels: 1, encoding: .pcm16)
        try capture.samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        seconds = capture.seconds
    }

    deinit { unlink(path) }
}

/// Everything `softmodem decode FILE` does for a mono 16-bit WAV, minus writing the bytes:
/// open with libsndfile, read 4096-frame blocks as float, demodulate, flush.
/// Opening the file allocates, so this benchmark has no allocation threshold.
func wavDecode(_ name: String, _ profile: ModemProfile, rate: Double, seconds: Double) {
    Benchmark(name) { benchmark, file in
        var events: [DemodulatorEvent] = []
        events.reserveCapacity(16_384)
        var buffer = [Float](repeating: 0, count: chunkSamples)
        var meter = RealTimeMeter()
        meter.begin(benchmark)
        let reader = try! SoundFileReader(path: file.path)
        var demodulator = try! FSKDemodulator(DemodulatorConfiguration(profile: profile, sampleRate: reader.sampleRate))
        while true {
            let n = try! buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { break }
            buffer.withUnsafeBufferPointer { demodulator.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &events) }
        }
        demodulator.flush(into: &events)
        meter.end(benchmark, audioSeconds: file.seconds)
        blackHole(events.count)
    } setup: {
        try WAVFixture(try Signals.traffic(profile: profile, rate: rate, seconds: seconds))
    }
}
