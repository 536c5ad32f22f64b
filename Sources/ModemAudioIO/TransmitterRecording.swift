public import ModemDSP

/// A transmitter's audio written to an ``AudioSink``: bytes in pieces of any size, the end
/// of a burst, and the resting line (silence, or HiJack's carrier) for a time. Bytes encoded
/// to a file, and a file's link packets recorded (``LinkRecording`` in ModemLive), are
/// written through it.
///
/// One buffer, sized at creation for the largest piece, serves every write. A mono
/// transmitter's samples go to the sink's channel layout; a stereo one's (HiJack with its
/// power tone) are written interleaved, so the sink must have two channels.
public struct TransmitterRecording<Transmitter: ModemTransmitter> {
    /// The transmitter, with its state (phase, a burst in progress).
    public private(set) var transmitter: Transmitter
    var sink: AudioSink
    var samples: [Float]
    /// Bytes encoded at a time: the buffer holds their frames.
    public let bytesPerPiece: Int
    /// Bytes encoded so far.
    public private(set) var bytes = 0
    /// Frames written so far.
    public private(set) var frames = 0

    /// A recording of `transmitter` into `sink`, encoding `bytesPerPiece` bytes at a time.
    ///
    /// The buffer also holds a tenth of a second of the resting line and a burst's end.
    public init(_ transmitter: Transmitter, sink: AudioSink, bytesPerPiece: Int = 256) {
        self.transmitter = transmitter
        self.sink = sink
        self.bytesPerPiece = max(1, bytesPerPiece)
        let frames = max(
            transmitter.maxFrames(forBytes: self.bytesPerPiece), transmitter.maxFramesForFinish,
            Int(transmitter.sampleRate) / 10 + transmitter.restOvershoot)
        samples = [Float](repeating: 0, count: frames * transmitter.channels)
    }

    /// Encodes `bytes` (any count: they are taken a piece at a time).
    public mutating func encode(_ bytes: UnsafeBufferPointer<UInt8>) throws(AudioIOError) {
        var i = 0
        while i < bytes.count {
            let part = UnsafeBufferPointer(rebasing: bytes[i..<min(i + bytesPerPiece, bytes.count)])
            let n = samples.withUnsafeMutableBufferPointer { transmitter.encode(part, into: $0.baseAddress!) }
            try put(n)
            i += part.count
        }
        self.bytes += bytes.count
    }

    /// Ends the burst in progress (stop bits, postamble), if any.
    public mutating func finishBurst() throws(AudioIOError) {
        try put(samples.withUnsafeMutableBufferPointer { transmitter.finishBurst(into: $0.baseAddress!) })
    }

    /// The resting line for about `seconds` (at least that long: a carrier ends on a whole
    /// cycle). Zero or negative writes nothing.
    public mutating func rest(seconds: Double) throws(AudioIOError) {
        var left = Int(seconds * transmitter.sampleRate)
        let step = max(1, Int(transmitter.sampleRate) / 10)
        while left > 0 {
            let ask = min(left, step)
            let n = samples.withUnsafeMutableBufferPointer { transmitter.rest(atLeast: ask, into: $0.baseAddress!) }
            try put(n)
            left -= n
        }
    }

    /// Completes the file (``AudioSink/finish()``).
    public func finish() throws(AudioIOError) { try sink.finish() }

    /// Writes the buffer's first `n` frames.
    mutating func put(_ n: Int) throws(AudioIOError) {
        frames += n
        if transmitter.channelPlan == .mono {
            try sink.write(samples, count: n)
        } else {
            try samples.withUnsafeBufferPointer { b throws(AudioIOError) in
                try sink.writeInterleaved(UnsafeBufferPointer(rebasing: b[0..<(n * transmitter.channels)]))
            }
        }
    }
}
