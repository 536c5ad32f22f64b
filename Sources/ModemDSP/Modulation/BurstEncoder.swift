/// Turns bytes into SoftModem bursts: mark preamble, UART characters back to back, mark
/// postamble, as the SoftModem iPhone app sends them.
///
/// Streaming: call ``encode(_:into:)`` as bytes arrive (the first call of a burst writes the
/// preamble), ``finishBurst(into:)`` when the burst ends, and ``silence(samples:into:)``
/// between bursts. Every call writes into a caller-owned buffer sized with the `max...`
/// helpers and returns the number of samples written, so the steady state allocates nothing.
public struct BurstEncoder: Sendable {
    /// The tone generator; its phase carries on from call to call.
    public private(set) var modulator: FSKModulator
    /// The character format every byte is framed in.
    public let format: FrameFormat
    /// Mark bits sent before the first character of a burst (the apps send 50).
    public var preambleBits: Int
    /// Mark bits sent after the last character of a burst (the apps send 7).
    public var postambleBits: Int
    /// True between the first character of a burst and ``finishBurst(into:)``.
    public private(set) var inBurst = false

    /// An encoder sending 8N1 with the apps' 50-bit preamble and 7-bit postamble unless
    /// given; negative bit counts become 0.
    public init(
        modulator: FSKModulator, format: FrameFormat = .eightN1,
        preambleBits: Int = 50, postambleBits: Int = 7
    ) {
        self.modulator = modulator
        self.format = format
        self.preambleBits = max(0, preambleBits)
        self.postambleBits = max(0, postambleBits)
    }

    /// Capacity needed by ``encode(_:into:)`` for `byteCount` bytes.
    public func maxSamples(forBytes byteCount: Int) -> Int {
        modulator.maxSamples(forBits: preambleBits + byteCount * format.bitsPerFrame)
    }

    /// Capacity needed by ``finishBurst(into:)``.
    public var maxSamplesForFinish: Int { modulator.maxSamples(forBits: postambleBits) }

    /// Encodes `bytes`, starting a burst (preamble) if none is open. An empty buffer
    /// writes nothing and opens no burst.
    public mutating func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<Float>) -> Int {
        guard !bytes.isEmpty else { return 0 }
        var written = 0
        if !inBurst {
            inBurst = true
            for _ in 0..<preambleBits { written += modulator.render(bit: true, into: output + written) }
        }
        let count = format.bitsPerFrame
        for byte in bytes {
            written += modulator.render(bits: format.wireBits(for: byte), count: count, into: output + written)
        }
        return written
    }

    /// Closes the open burst with the postamble; writes nothing if no burst is open.
    public mutating func finishBurst(into output: UnsafeMutablePointer<Float>) -> Int {
        guard inBurst else { return 0 }
        inBurst = false
        var written = 0
        for _ in 0..<postambleBits { written += modulator.render(bit: true, into: output + written) }
        return written
    }

    /// Writes `samples` zeros (closing no burst: call ``finishBurst(into:)`` first).
    public func silence(samples: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        let n = max(0, samples)
        output.update(repeating: 0, count: n)
        return n
    }

    /// Convenience for tests and small jobs: one whole burst of `bytes` as an array,
    /// with `leadingSilence` and `trailingSilence` zero samples around it.
    public mutating func burst(_ bytes: [UInt8], leadingSilence: Int = 0, trailingSilence: Int = 0) -> [Float] {
        let capacity = 1 + leadingSilence + maxSamples(forBytes: bytes.count) + maxSamplesForFinish + trailingSilence
        return [Float](unsafeUninitializedCapacity: capacity) { buffer, count in
            let base = buffer.baseAddress!
            var n = silence(samples: leadingSilence, into: base)
            n += bytes.withUnsafeBufferPointer { encode($0, into: base + n) }
            n += finishBurst(into: base + n)
            n += silence(samples: trailingSilence, into: base + n)
            count = n
        }
    }
}
