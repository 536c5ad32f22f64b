import ModemDSP

/// Model of the HiJack Gen 1 board's receiver (PROTOCOLS.md 2.2), for tests.
///
/// The comparator compares the AC-coupled headphone signal with VCC/2, i.e. the sample
/// sign; each crossing is dated by a 32.768 kHz timer (time floor'ed to whole ticks, as the
/// capture register does). Idle: an edge less than 17 ticks after the previous edge counts
/// as a "short" interval; a falling edge 17-34 ticks after the previous (rising) edge,
/// preceded by at least 3 short intervals, is a start bit. Receiving: edges fewer than 17
/// ticks after the last accepted edge are ignored, an edge 17-34 ticks after it is a bit
/// (the comparator level after it: rising = 1), more than 34 ticks aborts. The byte is
/// delivered on the 9th accepted edge (the parity edge) with neither parity nor stop bit
/// checked, exactly like the firmware.
public struct HiJackBoardReceiver {
    /// Sample rate of the headphone samples, in Hz.
    public let sampleRate: Double
    /// Bytes delivered so far.
    public private(set) var bytes: [UInt8] = []
    /// Start bits that were followed by a timeout before the byte completed.
    public private(set) var aborts = 0

    private static let timerHz = 32_768.0
    private var comparator: ComparatorCapture
    private var lastEdgeTick: Int64 = .min / 2
    private var shortIntervals = 0
    private var receiving = false
    private var lastAcceptedTick: Int64 = 0
    private var acceptedEdges = 0
    private var shift: UInt16 = 0

    /// An idle receiver for headphone samples at `sampleRate` Hz.
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        comparator = ComparatorCapture(sampleRate: sampleRate, timerHz: Self.timerHz)
    }

    /// Feeds headphone samples (the left channel) to the comparator.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            if let crossing = comparator.next(x) { edge(tick: crossing.tick, rising: crossing.rising) }
        }
    }

    private mutating func edge(tick: Int64, rising: Bool) {
        let interval = tick - lastEdgeTick
        lastEdgeTick = tick
        if !receiving {
            if interval < 17 {
                shortIntervals += 1
            } else if !rising && interval <= 34 && shortIntervals >= 3 {
                receiving = true
                lastAcceptedTick = tick
                acceptedEdges = 0
                shift = 0
                shortIntervals = 0
            } else {
                shortIntervals = 0
            }
            return
        }
        let since = tick - lastAcceptedTick
        if since < 17 { return }
        if since > 34 {
            receiving = false
            aborts += 1
            shortIntervals = 0
            return
        }
        lastAcceptedTick = tick
        acceptedEdges += 1
        if acceptedEdges <= 8, rising { shift |= 1 << UInt16(acceptedEdges - 1) }
        if acceptedEdges == 9 {
            bytes.append(UInt8(truncatingIfNeeded: shift))
            receiving = false
            shortIntervals = 0
        }
    }
}
