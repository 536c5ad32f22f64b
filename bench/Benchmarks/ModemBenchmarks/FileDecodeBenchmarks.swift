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

/// Everything `softmodem decode FILE` does for a mono 16-bit WAV, minus writing the bytes
/// and the tone adapter (which an on-frequency sender skips): open with libsndfile, read
/// 65536-frame blocks of 16-bit samples, demodulate them as integers 4096 frames at a
/// time, flush. Opening the file allocates, so this benchmark has no allocation threshold.
func wavDecode(_ name: String, _ profile: ModemProfile, rate: Double, seconds: Double) {
    Benchmark(name) { benchmark, file in
        var events: [ModemEvent] = []
        events.reserveCapacity(16_384)
        var meter = RealTimeMeter()
        meter.begin(benchmark)
        let reader = try! SoundFileReader(path: file.path)
        var demodulator = try! FSKDemodulator(DemodulatorConfiguration(profile: profile, sampleRate: reader.sampleRate))
        while true {
            let block = try! reader.readPCM16(maxFrames: 16 * chunkSamples)
            if block.isEmpty { break }
            var i = 0
            while i < block.count {
                let n = min(chunkSamples, block.count - i)
                demodulator.process(UnsafeBufferPointer(rebasing: block[i..<(i + n)]), into: &events)
                i += n
            }
        }
        demodulator.flush(into: &events)
        meter.end(benchmark, audioSeconds: file.seconds)
        blackHole(events.count)
    } setup: {
        try WAVFixture(try Signals.traffic(profile: profile, rate: rate, seconds: seconds))
    }
}
