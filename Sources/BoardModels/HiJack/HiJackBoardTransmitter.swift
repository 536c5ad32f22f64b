public import ModemDSP

/// Model of a HiJack board's transmitter (PROTOCOLS.md 2.3; docs/hijack.md), for tests.
///
/// A timer pin toggles every 11 ticks of a 32.768 kHz crystal (a half bit), so the line is
/// a square wave at 1489.45 baud: Manchester with 1 = low then high (rising mid-cell), 0 =
/// high then low. Frames are start 0, 8 data bits LSB first, even parity, stop 1, then
/// `idleBits` more 1s; before the first frame and whenever it has nothing to send the board
/// idles with 1s. The pin swings 0 to `level` (DC included, as on the real pin); each output
/// sample is the pin level averaged over the sample period, so edges fall between samples
/// exactly where the crystal puts them. `baud` can be moved off nominal to model a
/// mistuned clock.
///
/// hijack-infinity's firmware draws the same frames (1 = low then high) from its own timer
/// (1170.3 baud on the F1611 build) and idles exactly 4 bits after each parity bit: use
/// `idleBits: 3`. lab11's firmware (`generation: .lab11`) sends a packet as 4 preamble 1s,
/// a start 0 and the bytes' bits, 1 = high then low, then 7 half bits low, one high and
/// one low before it lets the pin float (modelled as low).
public struct HiJackBoardTransmitter {
    /// Output sample rate in Hz.
    public let sampleRate: Double
    /// Bit rate in baud; nominal is the crystal's 1489.45, other values model a mistuned clock.
    public let baud: Double
    /// Extra 1 bits sent after each frame's stop bit (not used by lab11 packets).
    public let idleBits: Int
    /// The pin's high level in full-scale units; the output swings between 0 and this.
    public let level: Float
    /// Which firmware's framing to draw: frames with idle 1s, or lab11's single-packet bit stream.
    public let generation: HiJackGeneration

    private let halfBitSamples: Double
    /// Half bits rendered so far; the next one ends at (count + 1) * halfBitSamples.
    private var halfBitCount = 0
    /// End of the output sample being built, and the pin-high time inside it so far.
    private var sampleEnd = 1.0
    private var accumulated = 0.0

    /// A transmitter at `sampleRate` Hz whose timeline starts at sample 0 with the pin low.
    public init(
        sampleRate: Double, baud: Double = HiJack.boardBaud, idleBits: Int = 1, level: Float = 1,
        generation: HiJackGeneration = .gen1
    ) {
        self.generation = generation
        self.sampleRate = sampleRate
        self.baud = baud
        self.idleBits = idleBits
        self.level = level
        halfBitSamples = sampleRate / baud / 2
    }

    /// The half-bit levels (pin high = true) of `bytes`, each as a frame plus idle 1s.
    public func halfBits(for bytes: [UInt8], leadingIdleBits: Int = 8) -> [Bool] {
        if generation.isBitStream { return packetHalfBits(for: bytes, leadingIdleBits: leadingIdleBits) }
        var bits: [UInt8] = Array(repeating: 1, count: leadingIdleBits)
        for byte in bytes {
            bits.append(0)
            for i in 0..<8 { bits.append((byte >> UInt8(i)) & 1) }
            bits.append(HiJack.evenParity(byte))
            bits.append(1)
            bits.append(contentsOf: Array(repeating: 1, count: idleBits))
        }
        return bits.flatMap { $0 == 1 ? [false, true] : [true, false] }
    }

    /// Renders half-bit levels to samples, area-averaging each sample period, and appends
    /// the completed samples to `output`. The timeline continues across calls.
    public mutating func render(_ halfBits: [Bool], into output: inout [Float]) {
        for high in halfBits {
            var t = Double(halfBitCount) * halfBitSamples
            let end = Double(halfBitCount + 1) * halfBitSamples
            while t < end {
                let stop = min(end, sampleEnd)
                if high { accumulated += stop - t }
                t = stop
                if stop == sampleEnd {
                    output.append(Float(accumulated) * level)
                    accumulated = 0
                    sampleEnd += 1
                }
            }
            halfBitCount += 1
        }
    }

    /// lab11: the pin is low (or floating) for `leadingIdleBits`, then one packet.
    private func packetHalfBits(for bytes: [UInt8], leadingIdleBits: Int) -> [Bool] {
        var levels = Array(repeating: false, count: 2 * leadingIdleBits)
        guard !bytes.isEmpty else { return levels }
        var bits: [UInt8] = Array(repeating: 1, count: HiJackGeneration.lab11BoardPreambleBits) + [0]
        for byte in bytes { for i in 0..<8 { bits.append((byte >> UInt8(i)) & 1) } }
        levels += bits.flatMap { $0 == 1 ? [true, false] : [false, true] }
        levels += Array(repeating: false, count: 7) + [true, false]
        return levels
    }
}
