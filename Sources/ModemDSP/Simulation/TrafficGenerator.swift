/// Modem traffic for measurements: bursts of seeded random bytes through any modem's
/// transmitter, the line at rest between them, as a sketch that sends readings sounds.
///
/// Each burst is a rest of ``gapFrames`` frames followed by the bytes (the transmitter's
/// preamble, characters, postamble). The bytes come from a ``SeededGenerator``, one
/// `next()` per byte, so a seed always gives the same bytes whatever the modem. Streaming:
/// ``nextBurst(count:into:)`` writes into a caller buffer of ``maxFrames(forBytes:)`` frames
/// and allocates nothing; ``signal(frames:channel:)`` collects a whole signal for decoders.
public struct TrafficGenerator<Transmitter: ModemTransmitter>: Sendable {
    /// The transmitter every burst goes through; its state carries on from burst to burst.
    public private(set) var transmitter: Transmitter
    /// Bytes in a full burst.
    public let burstBytes: Int
    /// Frames of rest before each burst.
    public let gapFrames: Int
    private var random: SeededGenerator
    private var burst: [UInt8]

    /// - Parameters:
    ///   - burstBytes: bytes per burst (at least 1).
    ///   - gapSeconds: rest before each burst (none when not positive).
    public init(transmitter: Transmitter, burstBytes: Int = 256, gapSeconds: Double = 0.1, seed: UInt64) {
        self.transmitter = transmitter
        self.burstBytes = max(1, burstBytes)
        gapFrames = gapSeconds > 0 ? Int(gapSeconds * transmitter.sampleRate) : 0
        random = SeededGenerator(seed: seed)
        burst = [UInt8](repeating: 0, count: self.burstBytes)
    }

    /// The bytes of the last burst written.
    public var lastBurst: ArraySlice<UInt8> { burst[..<lastCount] }
    private var lastCount = 0

    /// Upper bound of the frames ``nextBurst(count:into:)`` writes for `count` bytes.
    public func maxFrames(forBytes count: Int) -> Int {
        gapFrames + transmitter.restOvershoot + transmitter.maxFrames(forBytes: count) + transmitter.maxFramesForFinish
    }

    /// Writes the rest and one burst of `count` new random bytes (at most ``burstBytes``)
    /// as interleaved frames into `output`; returns the frames written.
    public mutating func nextBurst(count: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        let rest = restBeforeBurst(into: output)
        return rest + burstAfterRest(count: count, into: output + rest * transmitter.channels)
    }

    /// Exactly `frames` frames of traffic on one channel of the transmitter's output: full
    /// bursts while they fit, a shorter last one so short signals carry data too, then rest.
    ///
    /// - Returns: the samples, every byte sent in order, and the mean power of the burst
    ///   samples (rests excluded), to set noise for an SNR against.
    public mutating func signal(frames: Int, channel: Int = 0) -> (samples: [Float], bytes: [UInt8], burstPower: Double)
    {
        let total = max(0, frames)
        let channels = transmitter.channels
        let channel = min(max(0, channel), channels - 1)
        var scratch = [Float](repeating: 0, count: maxFrames(forBytes: burstBytes) * channels)
        var samples = [Float](repeating: 0, count: total)
        var bytes: [UInt8] = []
        var filled = 0
        var energy = 0.0
        var burstSamples = 0
        while true {
            var count = burstBytes
            while count > 0 && filled + maxFrames(forBytes: count) > total { count -= 1 }
            if count == 0 { break }
            let start = filled
            scratch.withUnsafeMutableBufferPointer { s in
                let base = s.baseAddress!
                let restEnd = restBeforeBurst(into: base)
                let n = burstAfterRest(count: count, into: base + restEnd * channels)
                for i in 0..<(restEnd + n) { samples[start + i] = base[i * channels + channel] }
                for i in restEnd..<(restEnd + n) {
                    let x = Double(base[i * channels + channel])
                    energy += x * x
                }
                burstSamples += n
                filled += restEnd + n
            }
            bytes += lastBurst
        }
        if filled < total {
            // The line at rest to the end, in pieces the scratch buffer holds.
            scratch.withUnsafeMutableBufferPointer { s in
                let piece = max(1, s.count / channels - transmitter.restOvershoot)
                while filled < total {
                    let n = min(
                        transmitter.rest(atLeast: min(piece, total - filled), into: s.baseAddress!), total - filled)
                    for i in 0..<n { samples[filled + i] = s[i * channels + channel] }
                    filled += n
                }
            }
        }
        return (samples, bytes, burstSamples > 0 ? energy / Double(burstSamples) : 0)
    }

    private mutating func restBeforeBurst(into output: UnsafeMutablePointer<Float>) -> Int {
        gapFrames > 0 ? transmitter.rest(atLeast: gapFrames, into: output) : 0
    }

    /// One burst of `count` new random bytes (at most ``burstBytes``), without the rest.
    private mutating func burstAfterRest(count: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        let count = min(max(0, count), burstBytes)
        for i in 0..<count { burst[i] = UInt8(truncatingIfNeeded: random.next()) }
        lastCount = count
        let n = burst.withUnsafeBufferPointer {
            transmitter.encode(UnsafeBufferPointer(rebasing: $0[0..<count]), into: output)
        }
        return n + transmitter.finishBurst(into: output + n * transmitter.channels)
    }
}
