/// The sending end of the reliable link: opens it with a hello, cuts messages into packets
/// sized to the far end and the loss rate, keeps up to the agreed window in flight, and
/// retransmits only what is lost (selective repeat, or go-back-N to a far end that keeps
/// nothing after a gap).
///
/// Driven by the caller's clock: ask ``nextBurst(at:)`` whether to transmit now, feed the
/// bytes coming back with ``receive(_:at:)``, and sleep until ``nextDeadline``. Time is any
/// monotonic number of seconds, so tests run in simulated time. The sender assumes its
/// bursts play back to back from the moment they are handed over, and dates each packet's
/// end on air from that.
///
/// - Full duplex (both ends listen while they talk and the path does not echo): the line is
///   kept busy about two packets ahead, and acknowledgements arrive while data flows.
/// - Half duplex (either end says so, or we hear our own packets): one burst of at most the
///   window (and the far end's burst limit), then silence until its acknowledgement or the
///   timeout.
/// - Loss: a packet is taken as lost when a packet sent after it is acknowledged, or, at a
///   go-back-N far end, when an acknowledgement that should already include it does not. A
///   timeout resends the oldest packet alone in full duplex (its acknowledgement then says
///   what else is missing) and every unacknowledged packet in half duplex.
public struct ReliableSender: Sendable {
    /// This end's sizes and timing; the sender uses the smaller of these sizes and the far end's.
    public let configuration: LinkConfiguration
    /// Counters of what this end sent and what the far end acknowledged.
    public internal(set) var statistics = LinkStatistics()
    /// What both ends agreed in the opening exchange (or the far end given at creation); nil
    /// while the hello is unanswered.
    public internal(set) var agreed: LinkCapabilities?
    /// True once our own packets were heard coming back: the link then runs half duplex.
    public internal(set) var echoHeard = false
    /// Until when the far end counts as sending data (it was heard doing so lately).
    var farEndDataUntil = -Double.infinity
    /// True while the line echoes and the far end sends data too: bursts are then one short packet.
    var sharing = false
    /// True once the packet size was cut back for a line that echoes.
    var echoSized = false
    /// True while no hello was answered and the sender runs as to a board with the first link
    /// version (``LinkCapabilities/arduinoRing``), asking again every ``helloProbeSeconds``.
    public internal(set) var assumedFirstVersion = false
    var probeAt = Double.infinity
    /// Hellos sent before the far end is taken for a first-version board. Why 4: the waits double
    /// from about a second, so a far end started by hand up to about 10 s later still opens the
    /// link with its full sizes at once.
    static let helloAttempts = 4
    /// Seconds between hellos while the far end is taken for a first-version board: a far end
    /// that answers late gets its full sizes within this, and a real first-version board loses
    /// about 2 % of the line to the hellos it ignores.
    public static let helloProbeSeconds = 10.0
    var queue: [[UInt8]] = []  // messages not yet cut into packets
    var queueHead = 0
    var offsetInHead = 0
    var flight: [InFlightPacket] = []
    var nextSeq: UInt16 = 0
    var lineFreeAt = -Double.infinity
    var timer: RoundTripEstimator
    var sizer: PacketSizer
    var helloDue: Double?
    var helloEnd = 0.0
    var helloSends = 0
    var answerDue: Double?  // half duplex: the deadline of the acknowledgement of our last burst
    var answerLatest = Double.infinity  // how far hearing the far end may push answerDue
    var parser = LinkPacketParser()
    /// Ends a hello request, so two stations with equal capabilities never mistake each
    /// other's request for their own echo.
    let nonce: [UInt8]
    /// Jitters the waits of a half-duplex line, so two stations that collided once do not
    /// time out together and collide again.
    var random: SplitMix64

    /// - Parameters:
    ///   - farEnd: the far end's capabilities when known (a recording, a board that states
    ///     nothing); nil opens the link with a hello and waits for the far end's.
    ///   - seed: seeds the hello's random bytes and the timer jitter (random by default;
    ///     simulations fix it). Two stations on one line must not share a seed.
    public init(
        configuration: LinkConfiguration = LinkConfiguration(), farEnd: LinkCapabilities? = nil,
        seed: UInt64 = .random(in: .min ... .max)
    ) {
        self.configuration = configuration
        random = SplitMix64(seed: seed)
        let bytes = random.next()
        nonce = (0..<4).map { UInt8(truncatingIfNeeded: bytes >> (8 * $0)) }
        let floor = configuration.airtime(bytes: LinkConfiguration.ackWireBytes) + configuration.margin
        timer = RoundTripEstimator(initial: configuration.ackTimeout, floor: floor)
        sizer = PacketSizer(maximum: configuration.capabilities.maxPayload, repairable: false)
        if let farEnd {
            agree(farEnd)
        } else {
            helloDue = 0
        }
        statistics.packetPayload = payloadSize
    }

    /// Queues a message. Empty messages are sent as one empty end-of-message packet.
    public mutating func send(_ message: [UInt8]) { queue.append(message) }

    /// True when every queued message has been acknowledged.
    public var isIdle: Bool { flight.isEmpty && queueHead == queue.count }

    /// True when data and acknowledgements may overlap on the line.
    public var fullDuplex: Bool { (agreed?.fullDuplex ?? false) && !echoHeard }

    /// Tells the sender that `bytes` of other traffic (our acknowledgements of the far end's data)
    /// were queued on our line at `now`: its own bursts play after them.
    public mutating func occupyLine(bytes: Int, at now: Double) {
        lineFreeAt = max(now, lineFreeAt) + Double(10 * bytes) / configuration.baud
    }

    /// Tells the sender that what the caller has queued on the line plays until `until` (its own
    /// measure: queued audio and bytes): it plans no burst to start earlier. The sender's own
    /// count of the line's time misses what it is not told of (each acknowledgement-only
    /// burst's preamble, a device's rate off by a little), and a caller that queues without
    /// blocking would let that error build up: a live full-duplex bridge was 13 s behind after
    /// 20 KB, and every retransmission waited behind it.
    public mutating func lineQueued(until: Double) {
        lineFreeAt = max(lineFreeAt, until)
    }

    /// Tells the sender that the path echoes (a shared line): it runs half duplex from now on.
    public mutating func pathEchoes() { echoHeard = true }

    /// Tells the sender that the far end is talking at `now` (on a shared line it answers only
    /// when it is done): a half-duplex wait for an acknowledgement restarts. When what it sends
    /// is `data`, a line that echoes is shared both ways for a while (``sharedBurst``).
    public mutating func heardFarEnd(at now: Double, data: Bool = false) {
        // The backoff is for a far end that is silent. One heard whole is there: on a shared
        // line its packets are answers or data sent once the line was quiet, so what was lost
        // was lost to the line, and the next try is owed a round trip from now, not 16. (Noise
        // in step with the exchange left a CI bridge waiting 28 s with the far end talking.)
        if !fullDuplex { timer.progressed() }
        // A far end that talks on and on (its own data, in bursts of up to ``echoBurstSeconds``)
        // is waited for no longer than one such burst: its acknowledgement rides in front of
        // its data, so a long wait means ours was lost (waiting on while it streamed held 4
        // bytes back for 23 s in CI).
        if let due = answerDue { answerDue = min(max(due, now + timer.timeout), answerLatest) }
        // Why 4 timeouts, at least 3 s: the far end's next burst comes a round trip after our
        // answer, and a noise hit on it costs another timeout before it is heard again.
        if data { farEndDataUntil = now + max(3, 4 * timer.timeout) }
    }

    /// When the sender next wants to act, if it is waiting for something.
    public var nextDeadline: Double? {
        guard !isIdle else { return nil }
        guard let agreed else { return helloDue }
        if !fullDuplex, let answerDue { return answerDue }
        var next = oldestWaiting.map { waitingDeadline($0) }
        let sendable = flight.contains { $0.lost } || (flight.count < agreed.window && queueHead < queue.count)
        if sendable { next = min(next ?? .infinity, fullDuplex ? lineFreeAt - lookahead : -.infinity) }
        if assumedFirstVersion { next = min(next ?? .infinity, probeAt) }
        return next
    }

    /// The bytes to transmit now as one burst, or nil if the sender is waiting (or done).
    public mutating func nextBurst(at now: Double) -> [UInt8]? {
        guard let agreed else { return hello(at: now) }
        expireTimers(at: now)
        if !fullDuplex && answerDue != nil { return nil }
        if assumedFirstVersion && now >= probeAt {
            probeAt = now + Self.helloProbeSeconds
            return helloBurst(at: now)
        }
        if fullDuplex && lineFreeAt - lookahead > now { return nil }
        sharing = echoHeard && now < farEndDataUntil
        if echoHeard && !echoSized {
            // Packets start short on a shared line and grow as they get through.
            echoSized = true
            sizer.restart(at: Self.sharedPayload)
        }
        let limit =
            fullDuplex ? Int.max : (sharing ? Self.sharedBurst : min(agreed.burstBytes ?? .max, burstLimit))
        var chosen: [Int] = []
        var bytes = 1
        for i in flight.indices where flight[i].lost {
            let n = flight[i].wire.count - 1
            if !chosen.isEmpty && bytes + n > limit { break }
            chosen.append(i)
            bytes += n
        }
        let retransmitted = chosen.count
        while flight.count < agreed.window, queueHead < queue.count {
            let n = min(payloadSize, queue[queueHead].count - offsetInHead) + sizer.overhead
            if !chosen.isEmpty && bytes + n > limit { break }
            if fullDuplex && !chosen.isEmpty && airtime(bytes + n) > lookahead { break }
            let packet = nextPacket()
            flight.append(
                InFlightPacket(
                    packet: packet, wire: packet.wireBytes(repairable: sizer.parity), parity: sizer.parity, end: 0))
            chosen.append(flight.count - 1)
            bytes += n
        }
        guard !chosen.isEmpty else { return nil }
        return transmit(chosen, retransmitted: retransmitted, at: now)
    }

    /// On a line that echoes (both ends share it: one sound server's sink, crosstalk) while
    /// the far end sends data too, every burst may meet the far end's: bursts are then one
    /// short packet, as the first link version sent, so a collision costs little and the turns
    /// stay short.
    static let sharedBurst = LinkCapabilities.arduinoRing.burstBytes ?? 31
    static let sharedPayload = LinkCapabilities.arduinoRing.maxPayload
    /// The largest payload on a line that echoes, whoever talks. Why 64: noise there comes in
    /// bursts (a click, a notification sound) that destroy whatever packet they meet, so a
    /// packet's chance of loss grows with its airtime; in EchoingLinePeerTests (50 ms of noise
    /// every 2.3 s) 64 carried 2 KB in 53-83 s, 243 in 65-147 s and 20 in 170-270 s.
    static let echoPayload = 64
    /// Seconds of line in one burst on a line that echoes while only we send data. Why 2.5:
    /// the far end answers only once the line is quiet, so every burst costs a round trip (about
    /// a second on a sound server); 1 s bursts carried a third of the line and 2.5 s bursts 56 %
    /// in EchoingLinePeerTests, and the far end's data waits at most this long for its turn.
    static let echoBurstSeconds = 2.5

    /// The payload a new packet gets.
    var payloadSize: Int {
        guard echoHeard else { return sizer.current }
        return min(sizer.current, sharing ? Self.sharedPayload : Self.echoPayload)
    }

    /// Bytes of a half-duplex burst: about 4 s of the line, so the far end's own data waits no
    /// longer than that for its turn (and our timer with it), or ``echoBurstSeconds`` on a line
    /// that echoes.
    var burstLimit: Int { max(64, Int((echoHeard ? Self.echoBurstSeconds : 4) * configuration.baud / 10)) }

    /// Seconds a full-duplex sender keeps queued ahead of the line: two packets or a quarter
    /// second, whichever is longer. Enough that the line never waits for the caller's next
    /// poll; no more, because a retransmission waits behind what is queued.
    var lookahead: Double {
        max(0.25, 2 * Double(10 * (sizer.current + LinkPacket.wireOverhead)) / configuration.baud)
    }

    func airtime(_ bytes: Int) -> Double { configuration.airtime(bytes: bytes) }

    /// A wait of `seconds` stretched by up to half again at random: two stations whose bursts
    /// collided (both heard nothing, both time out) then try again at different times, as
    /// Ethernet's random backoff does. Why a half: it separates them by about a short packet's
    /// airtime at the first timeout and costs a quarter of a timeout on average.
    mutating func jittered(_ seconds: Double) -> Double { seconds * (1 + 0.5 * random.nextUnit()) }

    private mutating func transmit(_ chosen: [Int], retransmitted: Int, at now: Double) -> [UInt8] {
        let start = max(now, lineFreeAt)
        var burst: [UInt8] = [0]
        let bitTime = 1 / configuration.baud
        for i in chosen {
            // A packet sent again takes the parity the line now needs.
            if flight[i].sends > 0 && flight[i].parity != sizer.parity {
                flight[i].parity = sizer.parity
                flight[i].wire = flight[i].packet.wireBytes(repairable: sizer.parity)
            }
            burst += flight[i].wire.dropFirst()
            flight[i].end = start + Double(configuration.preambleBits + 10 * burst.count) * bitTime
            flight[i].sends += 1
            flight[i].lost = false
        }
        lineFreeAt = start + airtime(burst.count)
        statistics.packetsSent += chosen.count
        statistics.retransmissions += retransmitted
        statistics.bursts += 1
        statistics.wireBytes += burst.count
        if !fullDuplex {
            answerDue = lineFreeAt + jittered(timer.timeout)
            answerLatest = (answerDue ?? lineFreeAt) + Self.echoBurstSeconds + timer.timeout
        }
        return burst
    }

    private mutating func hello(at now: Double) -> [UInt8]? {
        guard let due = helloDue, now >= due, !isIdle else { return nil }
        if helloSends > 0 {
            statistics.timeouts += 1
            timer.backOff()
        }
        if helloSends >= Self.helloAttempts {
            // No answer: perhaps a board running the first link version, which ignores hellos.
            // Send as to that board (the most cautious sizes) and keep asking now and then; a far
            // end that is not there acknowledges nothing either way.
            timer.progressed()
            agree(.arduinoRing)
            assumedFirstVersion = true
            probeAt = now + Self.helloProbeSeconds
            return nextBurst(at: now)
        }
        return helloBurst(at: now)
    }

    private mutating func helloBurst(at now: Double) -> [UInt8] {
        helloSends += 1
        let payload = configuration.capabilities.helloPayload(request: true) + nonce
        let bytes = LinkPacket(kind: .hello, seq: 0, payload: payload).wireBytes
        helloEnd = max(now, lineFreeAt) + airtime(bytes.count)
        lineFreeAt = helloEnd
        helloDue = helloEnd + jittered(timer.timeout)
        statistics.bursts += 1
        statistics.wireBytes += bytes.count
        return bytes
    }

    mutating func agree(_ far: LinkCapabilities) {
        let both = configuration.capabilities.agreed(with: far)
        agreed = both
        sizer = PacketSizer(maximum: both.maxPayload, repairable: both.corrects)
        helloDue = nil
    }

    private mutating func nextPacket() -> LinkPacket {
        let message = queue[queueHead]
        let n = min(payloadSize, message.count - offsetInHead)
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

/// A data packet sent and not yet acknowledged.
struct InFlightPacket: Sendable {
    var packet: LinkPacket
    /// Its bytes on the wire.
    var wire: [UInt8]
    /// True when ``wire`` carries parity.
    var parity: Bool
    /// When its latest copy ends on air.
    var end: Double
    var sends = 0
    /// The far end holds it (selective acknowledgement), but not everything before it.
    var sacked = false
    /// Taken as lost: it goes out again in the next burst.
    var lost = false
}
