/// A never-ending HiJack phone -> board signal for live playback: interleaved stereo frames
/// (left = data, right = power tone) pulled in blocks of any size.
///
/// Bytes are queued with `enqueue` and sent one frame per `bytePeriod` cells; when the queue
/// is empty the data line carries idle 1s (a 1378.125 Hz sine) so the board stays in sync,
/// and the power tone never stops. A byte starts only after at least 4 idle 1s. The queue is
/// a fixed ring allocated in `init`; `render` allocates nothing and can stop in the middle of
/// a bit cell (the rest of the cell comes first in the next call).
public struct HiJackLineSource: Sendable {
    public private(set) var encoder: HiJackEncoder
    public private(set) var tone: HiJackPowerTone
    private var ring: [UInt8]
    private var head = 0
    public private(set) var queuedBytes = 0
    /// Samples of the current cell not yet handed out.
    private var cell: [Float]
    private var cellCount = 0
    private var cellOffset = 0
    /// The frame being sent: bit i of `frame` is cell i (start, data, parity); `frameCell`
    /// counts cells since its start bit, nil when idle.
    private var frame: UInt16 = 0
    private var frameCell: Int?
    private var idleRun = 0

    /// - Parameters:
    ///   - encoder: bit rate, byte period, data level and polarity; its sample rate must be
    ///     the tone's.
    ///   - queueCapacity: bytes `enqueue` can hold (at least 1).
    /// - Throws: `HiJackConfigurationError.sampleRateMismatch` when the rates differ.
    public init(encoder: HiJackEncoder, tone: HiJackPowerTone, queueCapacity: Int = 4096) throws(HiJackConfigurationError) {
        guard encoder.sampleRate == tone.sampleRate else { throw .sampleRateMismatch(encoder.sampleRate, tone.sampleRate) }
        self.encoder = encoder
        self.tone = tone
        ring = [UInt8](repeating: 0, count: max(1, queueCapacity))
        cell = [Float](repeating: 0, count: encoder.maxSamplesPerBit)
    }

    /// Queues bytes; returns how many fit (the rest must be offered again later).
    public mutating func enqueue(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(bytes.count, ring.count - queuedBytes)
        for i in 0..<n { ring[(head + queuedBytes + i) % ring.count] = bytes[i] }
        queuedBytes += n
        return n
    }

    /// True when nothing is queued and no frame is on the line (only idle 1s and power).
    public var isIdle: Bool { queuedBytes == 0 && frameCell == nil }

    /// Fills `frames` (interleaved left/right, an even count) with the next samples.
    public mutating func render(into frames: UnsafeMutableBufferPointer<Float>) {
        let count = frames.count / 2
        guard count > 0, let base = frames.baseAddress else { return }
        tone.render(into: base + 1, count: count, stride: 2)
        var i = 0
        while i < count {
            if cellOffset == cellCount { nextCell() }
            let n = min(count - i, cellCount - cellOffset)
            cell.withUnsafeBufferPointer { c in
                for k in 0..<n { base[2 * (i + k)] = c[cellOffset + k] }
            }
            cellOffset += n
            i += n
        }
    }

    private mutating func nextCell() {
        var bit: UInt8 = 1
        if let c = frameCell {
            if c < HiJack.frameBits { bit = UInt8((frame >> UInt16(c)) & 1) }
            frameCell = c + 1 == encoder.bytePeriod ? nil : c + 1
            idleRun = c >= HiJack.frameBits ? idleRun + 1 : 0
        } else if queuedBytes > 0 && idleRun >= HiJack.minimumIdleBits {
            let byte = ring[head]
            head = (head + 1) % ring.count
            queuedBytes -= 1
            // start 0, data LSB first in bits 1-8, parity in bit 9.
            frame = UInt16(byte) << 1 | UInt16(HiJack.evenParity(byte)) << 9
            frameCell = 1
            bit = 0
            idleRun = 0
        } else {
            idleRun += 1
        }
        cellCount = cell.withUnsafeMutableBufferPointer { encoder.encodeBit(bit, into: $0.baseAddress!) }
        cellOffset = 0
    }
}
