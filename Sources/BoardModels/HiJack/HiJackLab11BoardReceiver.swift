import ModemDSP
import ModemFraming

/// Model of the lab11 firmware's receiver (`codingStateMachine.c` and `framingEngine.c`
/// at their last stored version), for tests.
///
/// The comparator (the signal's sign) is captured by Timer_A on SMCLK, an uncalibrated DCO
/// divided by 8 (`timerHz`, about 562 kHz), restarted at each edge it accepts; edges 5
/// ticks or fewer apart are ignored. Idle: once seven intervals are stored, an interval
/// whose half is within 100 ticks of their mean, when they span less than 100 ticks, is the
/// start bit; the mean becomes the half bit. Then from each mid-bit edge: two half-bit
/// intervals (within 100 ticks) are a bit equal to the last, one interval twice as long a
/// bit different from the last (the start bit counts as 0); any other interval ends the
/// packet. Bits go LSB first into bytes; a packet of whole bytes, at least two, whose last
/// byte is the sum of the others is delivered, as the framing engine does. Polarity is not
/// looked at, as in the firmware.
public struct HiJackLab11BoardReceiver {
    /// Sample rate of the headphone samples, in Hz.
    public let sampleRate: Double
    /// Rate of the capture timer in Hz (the firmware's SMCLK / 8; varies from board to board).
    public let timerHz: Double
    /// Packets delivered (header, payload, checksum).
    public private(set) var packets: [[UInt8]] = []
    /// Packets dropped: a partial byte, or a checksum that failed.
    public private(set) var rejected = 0

    private static let threshold: Int64 = 100
    private enum State { case idle, data, dataExtra }
    private var state = State.idle
    private var comparator: ComparatorCapture
    private var lastTick: Int64 = 0
    private var ring: [Int64] = []
    private var deltaT: Int64 = 0
    private var previousBit: UInt8 = 0
    private var bits: [UInt8] = []

    /// An idle receiver for headphone samples at `sampleRate` Hz whose capture timer counts at
    /// `timerHz` (default: a 4.5 MHz DCO divided by 8).
    public init(sampleRate: Double, timerHz: Double = 4_500_000.0 / 8) {
        self.sampleRate = sampleRate
        self.timerHz = timerHz
        comparator = ComparatorCapture(sampleRate: sampleRate, timerHz: timerHz)
    }

    /// Feeds headphone samples (the left channel) to the comparator.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            if let crossing = comparator.next(x) { edge(tick: crossing.tick) }
        }
    }

    private func within(_ value: Int64, _ desired: Int64) -> Bool { abs(value - desired) < Self.threshold }

    private mutating func edge(tick: Int64) {
        let interval = tick - lastTick
        guard interval > 5 else { return }
        lastTick = tick
        switch state {
        case .idle:
            if ring.count >= 7, let low = ring.min(), let high = ring.max(), high - low < Self.threshold,
                within(interval / 2, ring.reduce(0, +) / 7)
            {
                deltaT = ring.reduce(0, +) / 7
                state = .data
                previousBit = 0
                bits.removeAll()
                return
            }
            ring.append(interval)
            if ring.count > 7 { ring.removeFirst() }
        case .data:
            if within(interval, deltaT) {
                state = .dataExtra
            } else if within(interval / 2, deltaT) {
                addBit(1 - previousBit)
            } else {
                endPacket()
            }
        case .dataExtra:
            if within(interval, deltaT) {
                state = .data
                addBit(previousBit)
            } else {
                endPacket()
            }
        }
    }

    private mutating func addBit(_ bit: UInt8) {
        bits.append(bit)
        previousBit = bit
        state = .data
    }

    private mutating func endPacket() {
        defer {
            state = .idle
            ring.removeAll()
        }
        guard bits.count >= 16, bits.count % 8 == 0 else {
            if !bits.isEmpty { rejected += 1 }
            return
        }
        let bytes = stride(from: 0, to: bits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { $0 | bits[start + $1] << UInt8($1) }
        }
        let packet = HiJackLab11Packet(header: bytes[0], payload: Array(bytes[1..<(bytes.count - 1)]))
        guard packet.checksum == bytes[bytes.count - 1] else {
            rejected += 1
            return
        }
        packets.append(bytes)
    }
}
