/// What a one-way line does to the bytes on it, in simulated time (``DuplexLink``).
public struct LineImpairments: Sendable {
    /// Chance per byte of arriving as another value.
    public var corruptByte = 0.0
    /// Noise bursts per second of signal, each garbling 5-30 ms of bytes.
    public var noiseBurstsPerSecond = 0.0
    /// Chance per burst of a byte vanishing (a dropped span of samples).
    public var dropByte = 0.0
    /// Chance per burst of the whole burst arriving twice.
    public var duplicateBurst = 0.0

    /// Impairments given as chances and rates; each defaults to 0, a clean line.
    public init(
        corruptByte: Double = 0, noiseBurstsPerSecond: Double = 0, dropByte: Double = 0, duplicateBurst: Double = 0
    ) {
        self.corruptByte = corruptByte
        self.noiseBurstsPerSecond = noiseBurstsPerSecond
        self.dropByte = dropByte
        self.duplicateBurst = duplicateBurst
    }
}

/// A far end that hears nothing and answers nothing from `start` for `seconds`.
public struct Stall: Sendable {
    /// When the stall begins, in simulated seconds.
    public var start: Double
    /// How long the stall lasts, in seconds.
    public var seconds: Double
    /// A stall from `start` lasting `seconds`.
    public init(start: Double, seconds: Double) {
        self.start = start
        self.seconds = seconds
    }
    func covers(_ t: Double) -> Bool { t >= start && t < start + seconds }
}

/// One direction of a full-duplex path (a jack's output to a board's input, or snd-aloop's
/// one-to-two): bursts play back to back from when they are handed over, each byte arriving
/// `delay` seconds after it ends on air.
public struct OneWayLine: Sendable {
    let baud: Double
    let preambleBits: Int
    let postambleBits: Int
    let delay: Double
    /// What happens to the bytes; may change between runs.
    public var impairments: LineImpairments
    private var rng: SplitMix64
    /// When the line is next free, in simulated seconds: the end of the last burst's postamble.
    public private(set) var busyUntil = -Double.infinity
    private var pending: [(time: Double, byte: UInt8)] = []
    private var head = 0
    /// Bytes corrupted so far.
    public private(set) var corrupted = 0

    /// A line at `baud` (8N1, 50 preamble and 7 postamble mark bits per burst) whose bytes
    /// arrive `delay` seconds after their end on air; `seed` fixes the impairments' randomness.
    public init(baud: Double, delay: Double, impairments: LineImpairments, seed: UInt64) {
        self.baud = baud
        preambleBits = 50
        postambleBits = 7
        self.delay = delay
        self.impairments = impairments
        rng = SplitMix64(seed: seed)
    }

    /// Puts `burst` on the line at `now` (after what is already on it).
    public mutating func transmit(_ burst: [UInt8], at now: Double) {
        let start = max(now, busyUntil)
        let byteTime = 10 / baud
        var bytes = burst
        let noiseRun = Int(0.005 / byteTime) + 1
        let seconds = Double(bytes.count) * byteTime
        if rng.nextUnit() < impairments.noiseBurstsPerSecond * seconds, !bytes.isEmpty {
            let run = noiseRun + Int(rng.nextUnit() * 0.025 / byteTime)
            let at = Int(rng.next() % UInt64(bytes.count))
            for i in at..<min(bytes.count, at + run) { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        if rng.nextUnit() < impairments.dropByte, !bytes.isEmpty {
            bytes.remove(at: Int(rng.next() % UInt64(bytes.count)))
        }
        for i in bytes.indices where rng.nextUnit() < impairments.corruptByte {
            bytes[i] ^= UInt8(1 + rng.next() % 255)
            corrupted += 1
        }
        if rng.nextUnit() < impairments.duplicateBurst { bytes += bytes }
        let first = start + Double(preambleBits) / baud
        for (i, b) in bytes.enumerated() { pending.append((first + Double(i + 1) * byteTime + delay, b)) }
        busyUntil = start + Double(preambleBits + 10 * burst.count + postambleBits) / baud
    }

    /// The bytes that have arrived by `now`.
    public mutating func arrived(by now: Double) -> [UInt8] {
        var out: [UInt8] = []
        while head < pending.count && pending[head].time <= now {
            out.append(pending[head].byte)
            head += 1
        }
        if head > 4096 {
            pending.removeFirst(head)
            head = 0
        }
        return out
    }
}
