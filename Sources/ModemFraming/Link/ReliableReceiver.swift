/// Payload handed up by the receiving end: the next piece of a message, in order.
public struct LinkDelivery: Sendable, Equatable {
    /// The payload of one data packet, next in order (possibly empty).
    public var bytes: [UInt8]
    /// True on the last piece of a message.
    public var endOfMessage: Bool

    /// A delivery of `bytes`, the last of its message when `endOfMessage`.
    public init(bytes: [UInt8], endOfMessage: Bool) {
        self.bytes = bytes
        self.endOfMessage = endOfMessage
    }
}

/// The receiving end of the reliable link: answers the sender's hello with its own
/// capabilities, checks each packet's CRC, holds packets that arrive after a gap (when its
/// capabilities say it is selective), delivers data exactly once and in order, and
/// acknowledges cumulatively with a bitmap of what it holds beyond.
///
/// Driven like ``ReliableSender``: feed bytes with ``receive(_:at:)``, transmit what
/// ``nextBurst(at:)`` returns. In full duplex an acknowledgement is due at once; in half
/// duplex it waits ``LinkConfiguration/turnaround`` after the last byte heard so it does not
/// collide with the rest of the sender's burst. Data without a hello (a recording) is
/// received all the same, in half duplex.
public struct ReliableReceiver: Sendable {
    /// This end's sizes and timing; its capabilities are what its hello reply states.
    public let configuration: LinkConfiguration
    /// Counters of what this end received, delivered and acknowledged.
    public private(set) var statistics = LinkStatistics()
    private var expected: UInt16 = 0
    private var held: [UInt16: LinkPacket] = [:]
    private var ackDue: Double?
    private var helloDue: Double?
    private var senderFullDuplex = false
    private var requestNonce: [UInt8] = []
    /// True once our own packets were heard coming back: acknowledgements then wait for a quiet line.
    public private(set) var echoHeard = false
    private var parser = LinkPacketParser()

    /// Tags our acknowledgements (``LinkPacket/ack(next:bitmap:station:)``); nil sends none.
    let station: UInt16?

    /// - Parameter station: a tag that makes our acknowledgements differ from another station's
    ///   on the same line (``ReliablePeer`` sets one); nil for a receiver alone.
    public init(configuration: LinkConfiguration = LinkConfiguration(), station: UInt16? = nil) {
        self.configuration = configuration
        self.station = station
    }

    /// True when acknowledgements go out while data still arrives.
    public var fullDuplex: Bool { configuration.capabilities.fullDuplex && senderFullDuplex && !echoHeard }

    /// Tells the receiver that the path echoes (a shared line): it answers in half duplex from now on.
    public mutating func pathEchoes() { echoHeard = true }

    /// When an answer (hello or acknowledgement) is due, if one is.
    public var nextDeadline: Double? {
        switch (helloDue, ackDue) {
        case (let h?, let a?): min(h, a)
        case (let h?, nil): h
        case (nil, let a): a
        }
    }

    /// Bytes held by the packet parser and packets held after a gap.
    public var bufferedBytes: Int { parser.bufferedBytes + held.values.reduce(0) { $0 + $1.payload.count } }

    /// Feeds bytes from the sender; returns what they deliver, in order.
    public mutating func receive(_ bytes: some Sequence<UInt8>, at now: Double) -> [LinkDelivery] {
        var out: [LinkDelivery] = []
        for b in bytes {
            // Half duplex: a byte heard means the line is busy (a packet longer than the
            // turnaround, one damaged beyond reading): the answer waits until it is quiet.
            if !fullDuplex {
                helloDue = helloDue.map { max($0, now + configuration.turnaround) }
                ackDue = ackDue.map { max($0, now + configuration.turnaround) }
            }
            guard let p = parser.push(b) else { continue }
            switch p.kind {
            case .ack: continue
            case .hello:
                guard let (caps, request) = LinkCapabilities.fromHello(p.payload) else { continue }
                guard request else {
                    echoHeard = true  // a reply: ours, coming back
                    continue
                }
                senderFullDuplex = caps.fullDuplex
                // The reply carries the request's random bytes: it answers that request alone, and
                // two stations' replies are never the same bytes (one would be taken for an echo).
                requestNonce = Array(p.payload.dropFirst(5).prefix(4))
                helloDue = now + configuration.turnaround
            case .data, .dataEnd:
                ackDue = fullDuplex ? min(ackDue ?? now, now) : now + configuration.turnaround
                accept(p, into: &out)
            }
        }
        statistics.damagedPackets = parser.damagedPackets
        statistics.repairedBytes = parser.repairedBytes
        return out
    }

    private mutating func accept(_ p: LinkPacket, into out: inout [LinkDelivery]) {
        let ahead = Int(Int16(bitPattern: p.seq &- expected))
        if ahead < 0 || held[p.seq] != nil {
            statistics.duplicates += 1
            return
        }
        if ahead > 0 {
            // Past a gap: kept when there is room, else dropped for the sender to go back.
            if configuration.capabilities.selective && ahead <= configuration.capabilities.window {
                held[p.seq] = p
                statistics.held += 1
            } else {
                statistics.duplicates += 1
            }
            return
        }
        deliver(p, into: &out)
        while let next = held.removeValue(forKey: expected) { deliver(next, into: &out) }
    }

    private mutating func deliver(_ p: LinkPacket, into out: inout [LinkDelivery]) {
        expected &+= 1
        statistics.payloadBytes += p.payload.count
        if p.kind == .dataEnd { statistics.messages += 1 }
        out.append(LinkDelivery(bytes: p.payload, endOfMessage: p.kind == .dataEnd))
    }

    /// The answer to transmit now (our hello, an acknowledgement, or both), if one is due.
    public mutating func nextBurst(at now: Double) -> [UInt8]? {
        var packets: [LinkPacket] = []
        if let due = helloDue, now >= due {
            helloDue = nil
            packets.append(
                LinkPacket(
                    kind: .hello, seq: 0,
                    payload: configuration.capabilities.helloPayload(request: false) + requestNonce))
        }
        if let due = ackDue, now >= due {
            ackDue = nil
            packets.append(
                .ack(next: expected, bitmap: configuration.capabilities.selective ? bitmap : nil, station: station))
            statistics.acks += 1
        }
        guard !packets.isEmpty else { return nil }
        let bytes = LinkPacket.stream(packets)
        statistics.bursts += 1
        statistics.wireBytes += bytes.count
        return bytes
    }

    private var bitmap: UInt32 {
        var bits: UInt32 = 0
        for seq in held.keys {
            let i = Int(seq &- expected) - 1
            if i >= 0 && i < 32 { bits |= 1 << UInt32(i) }
        }
        return bits
    }
}
