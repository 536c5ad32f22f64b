/// The arms22 SoftModem library's receiver on a 16 MHz Arduino, fed from a headphone output
/// (PROTOCOLS.md 1.4, 1.5).
///
/// Analog front end: samples (full-scale units) become volts at the jack
/// (``InputStage/voltsAtFullScale``, 1.0 V peak at 0 dBFS by default), pass the input
/// coupling capacitor (one-pole high-pass), and reach the comparator whose other input sits
/// ``InputStage/thresholdVolts`` (0.3 V) above the bias. Every downward crossing of the
/// threshold (the comparator's falling edge, time interpolated between samples) is an
/// interrupt stamped with the 8-bit timer.
///
/// Firmware, kept faithful including its quirks:
/// * the tick difference is 8-bit (`uint8_t`), so after more than 255 ticks of silence the
///   first period is garbage;
/// * < 4 ticks: glitch, ignored without moving the reference; > 56: dropped (reference
///   moved); 43...56 space; <= 39 mark; 40-42 neither (1225-baud values; other rates scale);
/// * idle: space periods are summed into an 8-bit accumulator, any mark period clears it;
///   at >= 102 ticks a start bit is declared and the bit clock armed at
///   `now + bitTicks - sum`, then every `bitTicks`;
/// * at each bit tick the bit is mark if the mark accumulator exceeds the space one, and
///   only the winner's accumulator is cleared (the loser's carries over, 8-bit wrapping);
/// * bit 0 must be space, bits 1-8 are data LSB first, bit 9 must be mark or the byte is lost;
/// * bytes go into a 32-slot ring holding 31; when it is full new bytes are dropped.
///
/// Streaming: ``process(_:)`` takes chunks of any size; read bytes with ``read()`` or
/// ``drain()`` as a sketch's `loop()` would.
public struct ArduinoSoftModemReceiver: Sendable {
    /// The analog path from the headphone jack to the comparator.
    public struct InputStage: Sendable, Hashable {
        /// Peak volts at the jack for a full-scale (0 dBFS) sample. A phone or laptop with its
        /// volume at maximum gives about 1 V.
        public var voltsAtFullScale: Double = 1.0
        /// Comparator threshold above the bias, set by the trimmer.
        public var thresholdVolts: Double = 0.3
        /// Input coupling high-pass corner (a 1 uF capacitor into the 2 x 20k bias: about 16 Hz).
        public var couplingCorner: Double = 16

        /// The default stage: 1 V peak at full scale, a 0.3 V threshold and a 16 Hz coupling corner.
        public init() {}
    }

    /// Slots in the receive ring; one always stays empty, so it holds at most 31 bytes.
    public static let ringSlots = 32

    /// The library's timer constants for the profile being received.
    public let timing: ArduinoSoftModemTiming
    /// Input sample rate in Hz.
    public let sampleRate: Double
    /// The analog front end between the jack and the comparator.
    public let stage: InputStage

    // Classification constants, truncated to 8 bits as the C casts do.
    private let glitchTicks: UInt8 = 4
    private let spaceMax: UInt8
    private let spaceMin: UInt8
    private let markMax: UInt8
    private let startTicks: UInt8
    private let bitTicks: Int64
    private let ticksPerSecond: Double
    private let clockScale: Double

    private var coupling: OnePoleFilter
    private var previousVolts: Double = 0
    private var sampleCount: Int64 = 0
    private var lastEdgeTick: Int64 = 0
    private var lowCount: UInt8 = 0
    private var highCount: UInt8 = 0
    private var receiving = false
    private var bitIndex = 0
    private var bits: UInt8 = 0
    private var nextBitTick: Int64 = 0
    private var ring = [UInt8](repeating: 0, count: ArduinoSoftModemReceiver.ringSlots)
    private var head = 0
    private var tail = 0
    /// Bytes lost to a full ring so far (the firmware does not count them; the model does).
    public private(set) var overflowCount = 0
    /// Characters whose stop bit was a space (dropped).
    public private(set) var framingErrorCount = 0

    /// A receiver whose crystal is off by `clockError` (fraction; its ticks last longer
    /// when positive).
    public init(
        timing: ArduinoSoftModemTiming, sampleRate: Double, clockError: Double = 0,
        stage: InputStage = InputStage()
    ) {
        self.timing = timing
        self.sampleRate = sampleRate
        self.stage = stage
        spaceMax = UInt8(clamping: Int(Double(timing.spaceCycleTicks) * 1.10))
        spaceMin = UInt8(clamping: Int(Double(timing.spaceCycleTicks) * 0.85))
        markMax = UInt8(clamping: Int(Double(timing.markCycleTicks) * 1.15))
        startTicks = UInt8(clamping: Int(Double(timing.bitTicks) * 0.5))
        bitTicks = Int64(timing.bitTicks)
        clockScale = 1 + clockError
        ticksPerSecond = 1e6 / (Double(timing.tickMicroseconds) * clockScale)
        coupling = OnePoleFilter(.highPass, cornerFrequency: stage.couplingCorner, sampleRate: sampleRate)
    }

    /// Bytes waiting in the ring (`available()`).
    public var available: Int { (tail + Self.ringSlots - head) & (Self.ringSlots - 1) }

    /// `read()`: the oldest byte, or nil when the ring is empty.
    public mutating func read() -> UInt8? {
        guard head != tail else { return nil }
        let value = ring[head]
        head = (head + 1) & (Self.ringSlots - 1)
        return value
    }

    /// Reads every waiting byte.
    public mutating func drain() -> [UInt8] {
        var out: [UInt8] = []
        while let b = read() { out.append(b) }
        return out
    }

    /// Feeds samples (full-scale units). NaN samples read as 0 V.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>) {
        let scale = stage.voltsAtFullScale
        let threshold = stage.thresholdVolts
        for x in samples {
            let input = x.isNaN ? 0 : x
            let volts = Double(coupling.process(input)) * scale
            let n = sampleCount
            sampleCount += 1
            if previousVolts > threshold && volts <= threshold {
                // Crossing time, interpolated between sample n-1 and n.
                let fraction = (previousVolts - threshold) / (previousVolts - volts)
                let seconds = (Double(n - 1) + fraction) / sampleRate
                let tick = Int64((seconds * ticksPerSecond).rounded(.down))
                runBitClock(upTo: tick)
                comparatorInterrupt(at: tick)
            }
            previousVolts = volts
        }
        let endTick = Int64((Double(sampleCount) / sampleRate * ticksPerSecond).rounded(.down))
        runBitClock(upTo: endTick)
    }

    /// Feeds a whole array.
    public mutating func process(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { process($0) }
    }

    /// Fires every bit-clock compare interrupt due at or before `tick`.
    private mutating func runBitClock(upTo tick: Int64) {
        while receiving && nextBitTick <= tick {
            let at = nextBitTick
            nextBitTick += bitTicks
            bitInterrupt(at: at)
        }
    }

    /// `SoftModem::demodulate()`, the analog comparator interrupt.
    private mutating func comparatorInterrupt(at tick: Int64) {
        let diff = UInt8(truncatingIfNeeded: tick - lastEdgeTick)
        if diff < glitchTicks { return }
        lastEdgeTick = tick
        if diff > spaceMax { return }
        if diff >= spaceMin {
            lowCount &+= diff
            if !receiving && lowCount >= startTicks {
                receiving = true
                bitIndex = 0
                bits = 0
                highCount = 0
                nextBitTick = tick + bitTicks - Int64(lowCount)
            }
        } else if diff <= markMax {
            if receiving {
                highCount &+= diff
            } else {
                lowCount = 0
                highCount = 0
            }
        }
    }

    /// `SoftModem::recv()`, the bit-clock compare interrupt.
    private mutating func bitInterrupt(at tick: Int64) {
        let high: Bool
        if highCount > lowCount {
            highCount = 0
            high = true
        } else {
            lowCount = 0
            high = false
        }
        switch bitIndex {
        case 0:
            if high {
                receiving = false
                return
            }
            bitIndex = 1
        case 1...8:
            bits = bits >> 1 | (high ? 0x80 : 0)
            bitIndex += 1
        default:
            receiving = false
            guard high else {
                framingErrorCount += 1
                return
            }
            let next = (tail + 1) & (Self.ringSlots - 1)
            if next != head {
                ring[tail] = bits
                tail = next
            } else {
                overflowCount += 1
            }
        }
    }
}
