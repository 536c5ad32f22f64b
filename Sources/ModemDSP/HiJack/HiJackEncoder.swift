import RealModule

/// Phone -> board HiJack signal: Manchester with the stock library's sine-shaped pieces.
///
/// Every bit cell has a zero crossing in its middle: rising for 1, falling for 0 (as the
/// board sees it; `invert` flips the whole signal for audio paths that invert). Between two
/// mid-cell crossings the waveform is a full sine cycle at the bit rate when the two bits are
/// equal (so an idle line of 1s is a pure 1378.125 Hz sine), or one half cycle at half the
/// bit rate when they differ, exactly as the stock encoder draws it.
///
/// Gen 1 and hijack-infinity: a byte is start 0, 8 data bits LSB first, even parity, then
/// idle 1s until `bytePeriod` cells have passed since the start bit (never fewer than 4
/// idle 1s). lab11: a byte is its 8 data bits alone, the packet's framing (preamble, start
/// bit, postamble) being the transmitter's (``HiJackTransmitter``); in the sample domain
/// its library draws 1 the same way (negative then positive), so one drawing serves all
/// three. The bit clock is kept
/// as a fractional cell position, so any sample rate works with the exact bit rate (34.83
/// samples per bit at 48 kHz).
///
/// Output is written into caller buffers; nothing allocates after `init`. The signal starts
/// at a mid-cell zero crossing of an idle 1, so the first sample is 0.
public struct HiJackEncoder: Sendable {
    /// Output samples per second, in Hz (8000-192000).
    public let sampleRate: Double
    /// Bit cells per second (1000-1900 baud, ``HiJack/hostBaudRange``).
    public let baud: Double
    /// Bit cells from one start bit to the next (Gen 1 and infinity; lab11 ignores it).
    public let bytePeriod: Int
    /// Peak level of the signal, 0-1 of full scale.
    public let amplitude: Float
    /// True when the whole signal is flipped, for audio paths that invert it.
    public let invert: Bool
    /// Which framing ``encode(_:into:)`` writes: whole frames (Gen 1, infinity) or lab11's
    /// bare data bits.
    public let generation: HiJackGeneration

    /// Cells per sample.
    private let step: Double
    /// Position inside the current segment (from one mid-cell crossing to the next), in cells.
    private var position: Double = 0
    /// Value of the bit whose mid-cell crossing starts the next segment.
    private var previousBit: UInt8 = 1

    /// - Parameters:
    ///   - baud: bit rate; the board accepts about 1000-1900 baud.
    ///   - bytePeriod: cells from one start bit to the next (at least 14; not used by lab11).
    ///   - amplitude: peak level, 0-1 of full scale.
    ///   - invert: flip the signal for inverting audio paths.
    ///   - generation: Gen 1 and infinity frame each byte; lab11 writes its bits alone.
    /// - Throws: `HiJackConfigurationError` for a rate, bit rate, period or level that cannot work.
    public init(
        sampleRate: Double, baud: Double = HiJack.hostBaud, bytePeriod: Int = HiJack.defaultBytePeriod,
        amplitude: Float = 1, invert: Bool = false, generation: HiJackGeneration = .gen1
    ) throws(HiJackConfigurationError) {
        guard sampleRate.isFinite, ModemProfile.sampleRateRange.contains(sampleRate) else {
            throw .sampleRateOutOfRange(sampleRate)
        }
        guard baud.isFinite, HiJack.hostBaudRange.contains(baud) else {
            throw .baudOutOfRange(baud, HiJack.hostBaudRange)
        }
        guard generation.isBitStream || (HiJack.frameBits + HiJack.minimumIdleBits...100_000).contains(bytePeriod)
        else {
            throw .bytePeriodTooShort(bytePeriod)
        }
        guard amplitude.isFinite, (0...1).contains(amplitude) else {
            throw .amplitudeOutOfRange("amplitude", Double(amplitude))
        }
        self.sampleRate = sampleRate
        self.baud = baud
        self.bytePeriod = bytePeriod
        self.amplitude = amplitude
        self.invert = invert
        self.generation = generation
        step = baud / sampleRate
    }

    /// Upper bound of the samples one cell can produce.
    public var maxSamplesPerBit: Int { Int(sampleRate / baud) + 2 }

    /// Upper bound of the samples `encode` writes for `byteCount` bytes.
    public func maxSamples(forBytes byteCount: Int) -> Int {
        byteCount * (generation.isBitStream ? 8 : bytePeriod) * maxSamplesPerBit
    }

    /// Upper bound of the samples `idle(bits:into:)` writes.
    public func maxSamples(forIdleBits bits: Int) -> Int { bits * maxSamplesPerBit }

    /// Writes each byte as one frame plus its idle 1s; returns the number of samples written.
    ///
    /// `output` must hold `maxSamples(forBytes: bytes.count)` samples. Empty input writes nothing.
    public mutating func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<Float>) -> Int {
        var n = 0
        if generation.isBitStream {
            for byte in bytes {
                for i in 0..<8 { n += cell((byte >> UInt8(i)) & 1, output + n) }
            }
            return n
        }
        for byte in bytes {
            n += cell(0, output + n)
            var b = byte
            for _ in 0..<8 {
                n += cell(b & 1, output + n)
                b >>= 1
            }
            n += cell(HiJack.evenParity(byte), output + n)
            for _ in 0..<(bytePeriod - HiJack.frameBits) { n += cell(1, output + n) }
        }
        return n
    }

    /// Writes `bits` idle 1s (a pure sine at the bit rate); returns the samples written.
    ///
    /// Send a few before the first byte so the board sees idle 1s before its first start bit.
    public mutating func idle(bits: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        var n = 0
        for _ in 0..<max(0, bits) { n += cell(1, output + n) }
        return n
    }

    /// Writes one bit cell (0 or 1; other values count as 1) and returns the samples written,
    /// at most `maxSamplesPerBit`. For callers that frame bits themselves, such as a live
    /// source that must stop at any sample.
    public mutating func encodeBit(_ bit: UInt8, into output: UnsafeMutablePointer<Float>) -> Int {
        cell(bit == 0 ? 0 : 1, output)
    }

    /// Writes the half cell after the last mid-cell crossing, a half lobe back to zero at
    /// the cell's end, and returns the samples written (at most `maxSamplesPerBit`). lab11
    /// ends a packet so: its receivers take the silence that follows as the postamble.
    public mutating func finishCell(into output: UnsafeMutablePointer<Float>) -> Int {
        var sign: Double = previousBit == 1 ? 1 : -1
        if invert { sign = -sign }
        let a = Double(amplitude) * sign
        var n = 0
        var p = position
        while p < 0.5 {
            output[n] = Float(a * Double.sin(2 * Double.pi * p))
            n += 1
            p += step
        }
        position = 0
        previousBit = 1
        return n
    }

    /// Renders the segment from the previous bit's mid-cell crossing to this bit's.
    @inline(__always)
    private mutating func cell(_ bit: UInt8, _ output: UnsafeMutablePointer<Float>) -> Int {
        // After a rising crossing (1) the wave goes positive; after a falling one negative.
        var sign: Double = previousBit == 1 ? 1 : -1
        if invert { sign = -sign }
        let a = Double(amplitude) * sign
        // Equal bits: a full cycle per cell (boundary crossing in between). Different
        // bits: a half cycle over the whole cell (no boundary crossing).
        let omega = bit == previousBit ? 2 * Double.pi : Double.pi
        var n = 0
        var p = position
        while p < 1 {
            output[n] = Float(a * Double.sin(omega * p))
            n += 1
            p += step
        }
        position = p - 1
        previousBit = bit
        return n
    }
}
