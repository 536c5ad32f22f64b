/// The sending end of the reliable link: splits messages into packets, sends them in
/// bursts that fit the far end's receive buffer, and retransmits until acknowledged
/// (go-back-N over a window of ``LinkConfiguration/window`` packets).
///
/// Driven by the caller's clock: ask ``nextBurst(at:)`` whether to transmit now, feed the
/// bytes coming back with ``receive(_:at:)``, and sleep until ``nextDeadline``. Time is any
/// monotonic number of seconds, so tests run in simulated time. Memory holds the queued
/// messages and one window.
public struct ReliableSender: Sendable {
    public let configuration: LinkConfiguration
    public private(set) var statistics = LinkStatistics()
    private var queue: [[UInt8]] = []  // messages not yet cut into packets
    private var queueHead = 0
    private var offsetInHead = 0
    private var inFlight: [LinkPacket] = []
    private var nextSeq: UInt16 = 0
    private var deadline: Double?
    private var resendNow = false
    private var parser = LinkPacketParser()

    public init(configuration: LinkConfiguration = LinkConfiguration()) { self.configuration = configuration }

    /// Queues a message. Empty messages are sent as one empty end-of-message packet.
    public mutating func send(_ message: [UInt8]) { queue.append(message) }

    /// True when every queued message has been acknowledged.
    public var isIdle: Bool { inFlight.isEmpty && queueHead == queue.count }

    /// When the sender next wants to act (a retransmission), if it is waiting.
    public var nextDeadline: Double? { deadline }

    /// The bytes to transmit now as one burst, or nil if the sender is waiting (or done).
    ///
    /// A new burst is sent only when nothing is in flight; when the acknowledgement does not
    /// arrive by the deadline, the whole window is sent again.
    public mutating func nextBurst(at now: Double) -> [UInt8]? {
        if !inFlight.isEmpty {
            if resendNow {
                resendNow = false
            } else {
                guard let d = deadline, now >= d else { return nil }
                statistics.timeouts += 1
            }
            statistics.retransmissions += inFlight.count
        }
        while inFlight.count < configuration.window, let p = nextPacket() { inFlight.append(p) }
        guard !inFlight.isEmpty else {
            deadline = nil
            return nil
        }
        var burst: [UInt8] = []
        for p in inFlight { burst += p.wireBytes }
        statistics.packetsSent += inFlight.count
        statistics.bursts += 1
        statistics.wireBytes += burst.count
        deadline = now + configuration.airtime(bytes: burst.count) + configuration.ackTimeout
        return burst
    }

    /// Feeds bytes from the far end (acknowledgements); anything else is ignored.
    public mutating func receive(_ bytes: some Sequence<UInt8>, at now: Double) {
        for b in bytes {
            guard let p = parser.push(b) else { continue }
            guard p.kind == .ack, let first = inFlight.first else { continue }
            statistics.acks += 1
            let acked = Int(p.seq &- first.seq)
            guard acked >= 1 && acked <= inFlight.count else {
                // An ACK for the first packet in flight again: the burst's head was lost.
                // Resend at once rather than wait out the timer.
                if acked == 0 {
                    resendNow = true
                    deadline = now
                }
                continue
            }
            for q in inFlight.prefix(acked) {
                statistics.payloadBytes += q.payload.count
                if q.kind == .dataEnd { statistics.messages += 1 }
            }
            inFlight.removeFirst(acked)
            resendNow = !inFlight.isEmpty
            deadline = now
        }
        statistics.damagedPackets = parser.damagedPackets
    }

    private mutating func nextPacket() -> LinkPacket? {
        guard queueHead < queue.count else { return nil }
        let message = queue[queueHead]
        let n = min(configuration.maxPayload, message.count - offsetInHead)
        let last = offsetInHead + n == message.count
        let p = LinkPacket(
            kind: last ? .dataEnd : .data, seq: nextSeq, payload: Array(message[offsetInHead..<(offsetInHead + n)]))
        nextSeq &+= 1
        if last {
            queue[queueHead] = []
            queueHead += 1
            offsetInHead = 0
            if queueHead > 64 && queueHead * 2 > queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
        } else {
            offsetInHead += n
        }
        return p
    }
}
