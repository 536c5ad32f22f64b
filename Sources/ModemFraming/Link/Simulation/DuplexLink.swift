/// A sender and a receiver on two one-way lines in simulated time, stepped a byte time at a
/// time: the way a jack (headphone out, microphone in) or snd-aloop's two ends carry the link.
/// For tests and `softmodem bench link`; memory grows with the bytes in flight only.
public struct DuplexLink: Sendable {
    /// The sending end, transmitting on ``forward``.
    public var sender: ReliableSender
    /// The receiving end: hears ``forward`` and answers on ``backward``.
    public var receiver: ReliableReceiver
    /// The line from sender to receiver (data and hellos).
    public var forward: OneWayLine
    /// The line from receiver to sender (acknowledgements and hello replies).
    public var backward: OneWayLine
    /// A far end that stops hearing and answering for a while.
    public var stall: Stall?
    /// Simulated seconds since the start.
    public private(set) var now = 0.0

    /// `delay` is each direction's latency (seconds) beside airtime.
    public init(
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
    public mutating func run(limit: Double, deliver: (LinkDelivery) -> Void) -> Bool {
        let step = 10 / sender.configuration.baud
        while now < limit {
            if sender.isIdle { return true }
            if let burst = sender.nextBurst(at: now) { forward.transmit(burst, at: now) }
            let stalled = stall?.covers(now) ?? false
            let heard = forward.arrived(by: now)
            if !stalled {
                for d in receiver.receive(heard, at: now) { deliver(d) }
                if let answer = receiver.nextBurst(at: now) { backward.transmit(answer, at: now) }
            }
            let back = backward.arrived(by: now)
            if !back.isEmpty { sender.receive(back, at: now) }
            now += step
        }
        return sender.isIdle
    }

    /// Payload bytes acknowledged a second, as a fraction of the line's bytes a second.
    public var efficiency: Double { Double(sender.statistics.payloadBytes) / (now * sender.configuration.baud / 10) }
}
