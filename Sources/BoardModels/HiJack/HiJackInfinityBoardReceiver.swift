import ModemDSP

/// Model of the hijack-infinity firmware's receiver on the MSP430F1611 build (its
/// Makefile's default), for tests: `codingStateMachine.c` with config.h's THRESHOLD 4.
///
/// The comparator (the signal's sign) is captured by a 32.768 kHz timer that the interrupt
/// restarts at each edge it accepts; an edge 5 ticks or fewer after the last accepted one
/// is ignored and its time folds into the next interval. Each interval comes with the level
/// it held. Idle: an interval of the line high whose length is twice the previous
/// interval's, within 4 ticks, is the start marker (the last idle 1's high half and the
/// start bit's); the previous interval becomes the half bit. Then from each mid-bit edge:
/// one half-bit interval followed by another is a bit equal to the last; one interval of
/// twice a half bit (halved, in integer ticks) is a bit different from the last; anything
/// else drops the byte. Ten bits (start, 8 data LSB first, even parity): the byte is kept
/// when its parity holds.
public struct HiJackInfinityBoardReceiver {
    /// Sample rate of the headphone samples, in Hz.
    public let sampleRate: Double
    /// Bytes delivered so far.
    public private(set) var bytes: [UInt8] = []
    /// Frames whose parity failed, and frames abandoned on a bad interval.
    public private(set) var parityErrors = 0
    /// Frames abandoned on an interval that fits neither one nor two half bits.
    public private(set) var aborts = 0

    private static let timerHz = 32_768.0
    private static let threshold: Int64 = 4
    private enum State { case idle, data, dataNext }
    private var state = State.idle
    private var comparator: ComparatorCapture
    private var lastTick: Int64 = 0
    private var lastInterval: Int64 = 13
    private var deltaT: Int64 = 13
    private var rxByte: UInt16 = 0
    private var rxBits = 0

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

    private func within(_ value: Int64, _ desired: Int64) -> Bool {
        value < desired + Self.threshold && value > desired - Self.threshold
    }

    /// `rising`: the line was low during the interval that just ended.
    private mutating func edge(tick: Int64, rising: Bool) {
        let interval = tick - lastTick
        guard interval > 5 else { return }
        lastTick = tick
        defer { lastInterval = interval }
        let wasHigh = !rising
        switch state {
        case .idle:
            if wasHigh && within(interval, 2 * lastInterval) {
                deltaT = lastInterval
                state = .data
                rxByte = 0
                rxBits = 1
            }
        case .data:
            if within(interval, deltaT) {
                state = .dataNext
            } else if within(interval / 2, deltaT) {
                if (rxByte >> UInt16(rxBits - 1)) & 1 == 0 { rxByte |= 1 << UInt16(rxBits) }
                rxBits += 1
                advance()
            } else {
                aborts += 1
                state = .idle
            }
        case .dataNext:
            if within(interval, deltaT) {
                if (rxByte >> UInt16(rxBits - 1)) & 1 == 1 { rxByte |= 1 << UInt16(rxBits) }
                rxBits += 1
                advance()
            } else {
                aborts += 1
                state = .idle
            }
        }
    }

    private mutating func advance() {
        guard rxBits == 10 else {
            state = .data
            return
        }
        let data = UInt8(truncatingIfNeeded: rxByte >> 1)
        if HiJack.evenParity(data) == UInt8(rxByte >> 9) {
            bytes.append(data)
        } else {
            parityErrors += 1
        }
        state = .idle
    }
}
