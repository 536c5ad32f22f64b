/// A streaming decoder of one modem's audio into characters: the FSK demodulator and the
/// HiJack decoder both conform, so file decoding and live reception are written once.
///
/// Chunks may have any length, including zero; state is kept between calls and nothing
/// allocates except appending to `events`. Event times count samples from creation or the
/// last ``reset()``. Callers hold a concrete conforming type (chosen once, from a ``Modem``)
/// and call generic code, so the per-sample loops stay specialised.
public protocol ModemReceiver: Sendable {
    /// Samples per second the receiver was built for.
    var sampleRate: Double { get }
    /// Samples given since creation or the last ``reset()``.
    var samplesConsumed: Int64 { get }
    /// True while the receiver is locked to a sender inside a burst.
    var isInBurst: Bool { get }
    /// Decodes a chunk of mono samples (full scale +-1), appending what it found.
    mutating func process(_ samples: UnsafeBufferPointer<Float>, into events: inout [ModemEvent])
    /// Decodes a chunk of mono 16-bit samples (full scale +-32768), appending what it found.
    mutating func process(_ samples: UnsafeBufferPointer<Int16>, into events: inout [ModemEvent])
    /// Ends the input: reports what the end of the signal completed or cut off.
    mutating func flush(into events: inout [ModemEvent])
    /// Forgets all signal history, as if newly created (after a gap in the input, such as
    /// a capture overrun, so a character cut by the gap is dropped).
    mutating func reset()
}

extension ModemReceiver {
    /// Converts to floats in small blocks on the stack, for receivers without an integer path.
    public mutating func process(_ samples: UnsafeBufferPointer<Int16>, into events: inout [ModemEvent]) {
        let block = 1024
        withUnsafeTemporaryAllocation(of: Float.self, capacity: block) { floats in
            var i = 0
            while i < samples.count {
                let n = min(block, samples.count - i)
                for k in 0..<n { floats[k] = Float(samples[i + k]) * (1.0 / 32768) }
                process(UnsafeBufferPointer(rebasing: floats[0..<n]), into: &events)
                i += n
            }
        }
    }
}

extension FSKDemodulator: ModemReceiver {}

extension HiJackDecoder: ModemReceiver {}
