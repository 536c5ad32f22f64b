/// Which way a burst travels.
public enum LinkDirection: Sendable { case toReceiver, toSender }

/// A half-duplex byte channel for ``LinkSession``: carries one burst at a time.
public protocol HalfDuplexChannel {
    /// Carries `burst`; returns the bytes the far end gets (possibly damaged, or with
    /// earlier bursts the channel held back) and the seconds the channel was busy.
    mutating func carry(_ burst: [UInt8], direction: LinkDirection) -> (received: [UInt8], airtime: Double)
}

/// Runs a sender and a receiver against a channel in simulated time, one burst at a time
/// (so a full-duplex agreement changes only how acknowledgements are timed).
public struct LinkSession<Channel: HalfDuplexChannel> {
    /// The sending end; queue messages on it before ``run(timeLimit:deliver:)``.
    public var sender: ReliableSender
    /// The receiving end, which answers the sender's hello and acknowledges its data.
    public var receiver: ReliableReceiver
    /// The channel that carries every burst, both ways.
    public var channel: Channel
    /// Simulated seconds since the start.
    public private(set) var now = 0.0

    /// A sender that opens with a hello and a receiver that answers it; `receiving` (default:
    /// `configuration`) is the receiving end's, with the capabilities it states.
    public init(
        configuration: LinkConfiguration = LinkConfiguration(), receiving: LinkConfiguration? = nil, channel: Channel
    ) {
        sender = ReliableSender(configuration: configuration)
        receiver = ReliableReceiver(configuration: receiving ?? configuration)
        self.channel = channel
    }

    /// Runs until the sender is idle (true) or `timeLimit` simulated seconds pass (false).
    /// Every delivery is passed to `deliver` in order.
    public mutating func run(timeLimit: Double, deliver: (LinkDelivery) -> Void) -> Bool {
        while now < timeLimit {
            var acted = false
            if let burst = sender.nextBurst(at: now) {
                let (got, airtime) = channel.carry(burst, direction: .toReceiver)
                now += airtime
                for d in receiver.receive(got, at: now) { deliver(d) }
                acted = true
            }
            if let ack = receiver.nextBurst(at: now) {
                let (got, airtime) = channel.carry(ack, direction: .toSender)
                now += airtime
                sender.receive(got, at: now)
                acted = true
            }
            if acted { continue }
            if sender.isIdle && receiver.nextDeadline == nil { return true }
            let next = [sender.nextDeadline, receiver.nextDeadline].compactMap { $0 }.min()
            guard let next else { return sender.isIdle }
            now = max(now, next)
        }
        return sender.isIdle
    }
}
