/// One station of a reliable link that carries data both ways on one shared channel (two
/// `serial --reliable` bridges): what we send goes through a ``ReliableSender``, what the far
/// end sends comes through a ``ReliableReceiver``, and our acknowledgements ride in front of
/// our data in the same burst.
///
/// On a shared medium (a loopback, cable crosstalk, a half-duplex board) a station hears its
/// own bursts. Each packet we transmit is remembered until its echo deadline, and the first
/// identical packet heard before then is dropped: our own data must never be delivered to
/// us, and our own ACKs must never acknowledge our data. Our ACKs carry a station tag, so the
/// far end's never equal them; should the far end send a data packet byte-identical to one of
/// ours within that window, the first copy heard is the one dropped; since both copies are
/// equal, that costs at most a retransmission, never a wrong delivery.
/// Only an echo arriving after its deadline could be mistaken for the far end, so callers
/// give deadlines with a generous margin.
///
/// The far end may be a board that only receives (`samples/arduino/reliable_link`): it
/// never sends data, so we never send it an ACK, and our sender keeps to what its hello states.
public struct ReliablePeer: Sendable {
    /// Our sending end: our messages to the far end, and its acknowledgements of them.
    public private(set) var sender: ReliableSender
    /// Our receiving end: the far end's data, and our acknowledgements of it.
    public private(set) var receiver: ReliableReceiver
    private var parser = LinkPacketParser()
    private var echoes: [(packet: LinkPacket, until: Double)] = []
    private var queuedBytes = 0
    /// Packets heard that were our own transmission coming back.
    public private(set) var echoesDropped = 0
    /// True once our own hello came back: the line is shared.
    public private(set) var lineEchoes = false
    /// Until when the line counts as busy: a turnaround after the last byte heard.
    private var lineBusyUntil = -Double.infinity
    private var deferredSince: Double?
    /// Seconds a half-duplex station waits for a busy line to go quiet before it talks anyway.
    /// Why 3: longer than any burst a station sends on a shared line, shorter than the stall report.
    static let longestDeferral = 3.0

    /// - Parameters:
    ///   - sending: our sender's sizes and ACK timeout (its turnaround covers the whole
    ///     path: our output delay, the far end's turnaround, the way back).
    ///   - receiving: how long our receiver waits before acknowledging.
    ///   - farEnd: the far end's capabilities when known; nil opens with a hello.
    ///   - seed: seeds the sender's random bytes and jitter (``ReliableSender/init(configuration:farEnd:seed:)``).
    public init(
        sending: LinkConfiguration, receiving: LinkConfiguration, farEnd: LinkCapabilities? = nil,
        seed: UInt64 = .random(in: .min ... .max)
    ) {
        sender = ReliableSender(configuration: sending, farEnd: farEnd, seed: seed)
        // Our acknowledgements carry a tag of our own: on a full-duplex line the far end's,
        // acknowledging the same sequence number, would otherwise be our bytes exactly and be
        // dropped as our echo (two bridges sending at once then never heard each other's).
        receiver = ReliableReceiver(configuration: receiving, station: UInt16(truncatingIfNeeded: seed >> 17))
    }

    /// Queues a message for the far end.
    public mutating func send(_ message: [UInt8]) {
        sender.send(message)
        queuedBytes += message.count
    }

    /// Bytes queued with ``send(_:)`` that the far end has not acknowledged yet.
    public var unacknowledgedBytes: Int { queuedBytes - sender.statistics.payloadBytes }

    /// Packets that arrived damaged beyond repair (CRC, length, COBS), counted once here.
    public var damagedPackets: Int { parser.damagedPackets }
    /// Bytes that packets' parity repaired, counted once here.
    public var repairedBytes: Int { parser.repairedBytes }

    /// The burst to transmit now (an ACK that is due, then data that is due), or nil.
    ///
    /// - Parameter echoDelay: seconds from now until the burst has certainly been heard
    ///   back, airtime excluded (output queue, device and server buffers, a margin).
    public mutating func nextBurst(at now: Double, echoDelay: Double) -> [UInt8]? {
        // Half duplex: nobody starts while the line carries something (the far end's burst, our
        // own echo, noise), or the two bursts would garble each other; a line that never goes
        // quiet is talked over after a while.
        if !sender.fullDuplex && now < lineBusyUntil {
            deferredSince = deferredSince ?? now
            if now - (deferredSince ?? now) < Self.longestDeferral { return nil }
        }
        deferredSince = nil
        var burst = receiver.nextBurst(at: now) ?? []
        // Our acknowledgements take the line too: the sender dates its data after them and keeps
        // no more queued ahead than it means to (counting only its own bursts, a full-duplex
        // bridge queued 6 % more than the line played, until the playback ring was full).
        if !burst.isEmpty { sender.occupyLine(bytes: burst.count, at: now) }
        if let data = sender.nextBurst(at: now) { burst += data }
        guard !burst.isEmpty else { return nil }
        let until = now + echoDelay + sender.configuration.airtime(bytes: burst.count)
        var own = LinkPacketParser()
        for b in burst {
            if let p = own.push(b) { echoes.append((p, until)) }
        }
        return burst
    }

    /// Tells our sender that what is queued on the line plays until `until`
    /// (``ReliableSender/lineQueued(until:)``).
    public mutating func lineQueued(until: Double) { sender.lineQueued(until: until) }

    /// Keeps every pending echo expected until at least `until` (while our transmitter is
    /// still busy, since devices and servers may start playing late).
    public mutating func holdEchoes(until: Double) {
        for i in echoes.indices where echoes[i].until < until { echoes[i].until = until }
    }

    /// Feeds bytes heard on the channel; returns the far end's data they deliver, in order.
    public mutating func receive(_ bytes: some Sequence<UInt8>, at now: Double) -> [LinkDelivery] {
        echoes.removeAll { $0.until < now }
        var out: [LinkDelivery] = []
        for b in bytes {
            lineBusyUntil = now + receiver.configuration.turnaround
            guard let p = parser.push(b) else { continue }
            // A packet equal to one of ours, heard before its echo deadline, is taken for ours: our
            // own data must never be delivered to us, nor our acknowledgements taken for the far
            // end's, even before we know the line echoes (our hello's echo may be damaged). Our own
            // hello back (its random bytes make it ours) proves it does: both ends then wait for
            // the line to be quiet. On a full-duplex line this drops the far end's packets that
            // happen to equal ours (equal acknowledgements): that costs a retransmission, never a
            // wrong delivery.
            if let i = echoes.firstIndex(where: { $0.packet == p }) {
                echoes.remove(at: i)
                echoesDropped += 1
                if p.kind == .hello && !lineEchoes {
                    lineEchoes = true
                    sender.pathEchoes()
                    receiver.pathEchoes()
                }
                continue
            }
            sender.heardFarEnd(at: now, data: p.kind == .data || p.kind == .dataEnd)
            switch p.kind {
            case .ack: sender.receive(p.wireBytes, at: now)
            case .hello:
                // The far end's request goes to our receiver (which answers it), its reply to our sender.
                let request = LinkCapabilities.fromHello(p.payload)?.request ?? false
                if request {
                    out += receiver.receive(p.wireBytes, at: now)
                } else {
                    sender.receive(p.wireBytes, at: now)
                }
            case .data, .dataEnd: out += receiver.receive(p.wireBytes, at: now)
            }
        }
        return out
    }
}
