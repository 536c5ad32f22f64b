import ModemDSP
import ModemFraming

/// What a one-way line does to the bytes on it, in simulated time.
struct LineImpairments {
    /// Chance per byte of arriving as another value.
    var corruptByte = 0.0
    /// Noise bursts per second of signal, each garbling 5-30 ms of bytes.
    var noiseBurstsPerSecond = 0.0
    /// Chance per burst of a byte vanishing (a dropped span of samples).
    var dropByte = 0.0
    /// Chance per burst of the whole burst arriving twice.
    var duplicateBurst = 0.0
}

/// A far end that hears nothing and answers nothing from `start` for `seconds`.
struct Stall {
    var start: Double
    var seconds: Double
    func covers(_ t: Double) -> Bool { t >= start && t < start + seconds }
}

/// One direction of a full-duplex path (a jack's output to a board's input, or snd-aloop's
/// one-to-two): bursts play back to back from when they are handed over, each byte arriving
/// `delay` seconds after it ends on air.
struct OneWayLine {
    var baud: Double
    var preambleBits: Int
    var postambleBits: Int
    var delay: Double
    var impairments: LineImpairments
    var rng: SeededGenerator
    private(set) var busyUntil = -Double.infinity
    private var pending: [(time: Double, byte: UInt8)] = []
    private var head = 0
    private(set) var corrupted = 0
    private(set) var bytesCarried = 0

    init(baud: Double, delay: Double, impairments: LineImpairments, seed: UInt64) {
        self.baud = baud
        preambleBits = 50
        postambleBits = 7
        self.delay = delay
        self.impairments = impairments
        rng = SeededGenerator(seed: seed)
    }

    mutating func transmit(_ burst: [UInt8], at now: Double) {
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
        bytesCarried += burst.count
    }

    /// The bytes that have arrived by `now`, with the time the last of them arrived.
    mutating func arrived(by now: Double) -> [UInt8] {
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

/// A sender and a receiver on two one-way lines in simulated time, stepped a byte time at a
/// time: the way a jack (headphone out, microphone in) or snd-aloop's two ends carry the link.
struct DuplexLink {
    var sender: ReliableSender
    var receiver: ReliableReceiver
    var forward: OneWayLine
    var backward: OneWayLine
    var stall: Stall?
    private(set) var now = 0.0
    private(set) var deliveredBytes = 0

    init(
        sender: ReliableSender, receiver: ReliableReceiver, delay: Double = 0.1, forward: LineImpairments = .init(),
        backward: LineImpairments = .init(), seed: UInt64 = 1
    ) {
        self.sender = sender
        self.receiver = receiver
        let baud = sender.configuration.baud
        self.forward = OneWayLine(baud: baud, delay: delay, impairments: forward, seed: seed)
        self.backward = OneWayLine(baud: baud, delay: delay, impairments: backward, seed: seed ^ 0x5EED)
    }

    /// Runs until the sender is idle (true) or `limit` simulated seconds pass (false).
    mutating func run(limit: Double, deliver: (LinkDelivery) -> Void) -> Bool {
        let step = 10 / sender.configuration.baud
        while now < limit {
            if sender.isIdle { return true }
            if let burst = sender.nextBurst(at: now) { forward.transmit(burst, at: now) }
            let stalled = stall?.covers(now) ?? false
            let heard = forward.arrived(by: now)
            if !stalled {
                for d in receiver.receive(heard, at: now) {
                    deliveredBytes += d.bytes.count
                    deliver(d)
                }
                if let answer = receiver.nextBurst(at: now) { backward.transmit(answer, at: now) }
            }
            let back = backward.arrived(by: now)
            if !back.isEmpty { sender.receive(back, at: now) }
            now += step
        }
        return sender.isIdle
    }

    /// Payload bytes acknowledged a second, as a fraction of the line's bytes a second.
    var efficiency: Double { Double(sender.statistics.payloadBytes) / (now * sender.configuration.baud / 10) }
}
