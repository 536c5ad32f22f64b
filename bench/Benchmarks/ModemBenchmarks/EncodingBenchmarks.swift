import Benchmark
import BoardModels
import ModemDSP

/// The bytes and the preallocated output buffer for one encoding run.
final class EncodingJob: @unchecked Sendable {
    let modulator: FSKModulator
    let bytes: [UInt8]
    let output: UnsafeMutablePointer<Float>
    let capacity: Int

    init(profile: ModemProfile, rate: Double, seconds: Double) throws {
        modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: 0.9)
        // As many bytes as fill `seconds` when sent in bursts like `Signals.traffic`.
        let bitsPerBurst = Double(Signals.burstBytes * 10 + 57)
        let burstSeconds = bitsPerBurst / profile.baud + Signals.gap
        let bursts = max(1, Int(seconds / burstSeconds))
        bytes = TestSignals.randomBytes(bursts * Signals.burstBytes, seed: 7)
        let encoder = BurstEncoder(modulator: modulator)
        capacity =
            encoder.maxSamples(forBytes: Signals.burstBytes) + encoder.maxSamplesForFinish + Int(Signals.gap * rate)
        output = .allocate(capacity: capacity)
    }

    deinit { output.deallocate() }
}

/// Bursts of bytes to samples (preamble, characters, postamble, silence), one burst at a
/// time into the same caller buffer, as `softmodem encode` works. Must not allocate.
func encoding(_ name: String, _ profile: ModemProfile, rate: Double, seconds: Double) {
    Benchmark(name) { benchmark, job in
        var encoder = BurstEncoder(modulator: job.modulator)
        let gap = Int(Signals.gap * rate)
        var written = 0
        var meter = RealTimeMeter()
        meter.begin(benchmark)
        job.bytes.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(Signals.burstBytes, all.count - i)
                var k = encoder.encode(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), into: job.output)
                k += encoder.finishBurst(into: job.output + k)
                k += encoder.silence(samples: gap, into: job.output + k)
                blackHole(job.output[k / 2])
                written += k
                i += n
            }
        }
        meter.end(benchmark, audioSeconds: Double(written) / rate)
        blackHole(written)
    } setup: {
        try EncodingJob(profile: profile, rate: rate, seconds: seconds)
    }
}
