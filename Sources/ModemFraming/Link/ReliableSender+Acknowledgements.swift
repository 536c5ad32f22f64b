extension ReliableSender {
    /// Feeds bytes from the far end (its hello and acknowledgements); anything else is ignored,
    /// except that hearing our own hello or data means the path echoes.
    public mutating func receive(_ bytes: some Sequence<UInt8>, at now: Double) {
        for b in bytes {
            guard let p = parser.push(b) else { continue }
            switch p.kind {
            case .hello: heardHello(p, at: now)
            case .ack: acknowledged(p, at: now)
            case .data, .dataEnd: echoHeard = true
            }
        }
        statistics.damagedPackets = parser.damagedPackets
    }

    private mutating func heardHello(_ p: LinkPacket, at now: Double) {
        guard let (caps, request) = LinkCapabilities.fromHello(p.payload) else { return }
        // A request is ours coming back: only a far end's reply answers it.
        guard !request else {
            echoHeard = true
            return
        }
        // A reply that names another request (its random bytes) answers another station.
        guard p.payload.count < 9 || Array(p.payload[5..<9]) == nonce else { return }
        guard agreed == nil || assumedFirstVersion else { return }
        if helloSends == 1 { timer.sample(now - helloEnd) }
        timer.progressed()
        assumedFirstVersion = false
        agree(caps)
        statistics.packetPayload = payloadSize
    }

    private mutating func acknowledged(_ p: LinkPacket, at now: Double) {
        guard let agreed, let first = flight.first else { return }
        let cumulative = Int(p.seq &- first.packet.seq)
        guard cumulative >= 0 && cumulative <= flight.count else { return }
        statistics.acks += 1
        answerDue = nil
        var deliveredEnd = -Double.infinity
        // Which packets measure the round trip (Karn: only those sent once). Full duplex: each
        // is acknowledged as it arrives, but packets after a retransmitted one waited for it at
        // the far end (held behind the gap, or beyond the selective bitmap's reach), and their
        // acknowledgement measures the repair, not the path. Half duplex: the far end answers
        // a burst once it is over, so only the packet that ended on air last is timed (the
        // timeout runs from the burst's end too). One packet held 60 s behind a lost one had
        // measured the round trip at 60 s, set the timeout to its 30 s ceiling, and a 10-byte
        // line then waited 39 s behind one lost acknowledgement (CI's live serial test).
        var behindRepair = !fullDuplex
        var newest: InFlightPacket?
        for e in flight.prefix(cumulative) {
            if !e.sacked { delivered(e, at: now, measures: !behindRepair, deliveredEnd: &deliveredEnd) }
            if !e.sacked && e.end > newest?.end ?? -.infinity { newest = e }
            if e.sends > 1 { behindRepair = true }
            statistics.payloadBytes += e.packet.payload.count
            if e.packet.kind == .dataEnd { statistics.messages += 1 }
        }
        flight.removeFirst(cumulative)
        let bitmap = p.selectiveBitmap
        if bitmap != 0, let head = flight.first {
            for bit in 0..<32 where bitmap & (1 << UInt32(bit)) != 0 {
                let i = Int((p.seq &+ 1 &+ UInt16(bit)) &- head.packet.seq)
                guard i >= 0 && i < flight.count && !flight[i].sacked else { continue }
                flight[i].sacked = true
                delivered(flight[i], at: now, measures: fullDuplex, deliveredEnd: &deliveredEnd)
                if flight[i].end > newest?.end ?? -.infinity { newest = flight[i] }
            }
        }
        if !fullDuplex, let newest, newest.sends == 1 { timer.sample(now - newest.end) }
        // Half duplex: the far end answers only once the line is quiet, so an acknowledgement is
        // never late behind its data, and any that delivers something proves the far end is
        // there: the backoff ends. (With bursts of one packet, waiting for a packet sent once to
        // be acknowledged let a run of noise hits double the timeout to 30 s.)
        if !fullDuplex && deliveredEnd > -.infinity { timer.progressed() }
        markLosses(deliveredEnd: deliveredEnd, advanced: cumulative > 0, selective: agreed.selective, at: now)
        statistics.roundTrip = timer.smoothed ?? 0
        statistics.packetPayload = payloadSize
    }

    /// Counts a packet the far end now holds; `measures`: its round trip may be timed (see
    /// ``acknowledged(_:at:)``).
    private mutating func delivered(_ e: InFlightPacket, at now: Double, measures: Bool, deliveredEnd: inout Double) {
        // Karn: a retransmitted packet's acknowledgement may answer either copy; only a packet
        // sent once measures the round trip, and only such a packet undoes the backoff (an
        // acknowledgement queued behind the far end's own data comes late, and must not be
        // timed out again and again).
        if e.sends == 1 {
            if measures { timer.sample(now - e.end) }
            timer.progressed()
            sizer.record(lost: false)
        }
        deliveredEnd = max(deliveredEnd, e.end)
    }

    /// A packet that ended on air before one the far end now has is lost (it was sent before,
    /// so it should have arrived first). A go-back-N far end acknowledges again without a
    /// bitmap: any packet that ended a whole round trip ago is then lost too. In half duplex
    /// the far end answers only once our burst is over, so what it lacks then is lost.
    private mutating func markLosses(deliveredEnd: Double, advanced: Bool, selective: Bool, at now: Double) {
        let answersBurst = !fullDuplex
        for i in flight.indices where !flight[i].sacked && !flight[i].lost {
            let overtaken = flight[i].end < deliveredEnd
            let missed = !selective && !advanced && flight[i].end + timer.minimum <= now
            guard overtaken || missed || answersBurst else { continue }
            flight[i].lost = true
            // Going back N resends packets that arrived whole: only the first was damaged.
            if selective || i == 0 { sizer.record(lost: true) }
        }
    }

    /// The oldest packet whose acknowledgement is awaited (none while an older one waits to be resent).
    var oldestWaiting: Int? {
        guard let i = flight.firstIndex(where: { !$0.sacked && !$0.lost }), !flight[..<i].contains(where: { $0.lost })
        else { return nil }
        return i
    }

    /// When the packet at `i` is given up for lost: a timeout after it, or after the packet
    /// that follows it on the line if that ends later, since the far end acknowledges a packet
    /// as it arrives and one lost acknowledgement is made good by the next.
    func waitingDeadline(_ i: Int) -> Double {
        let next = i + 1 < flight.count && flight[i + 1].sends > 0 ? flight[i + 1].end : flight[i].end
        return max(flight[i].end, next) + timer.timeout
    }

    /// Timeouts: half duplex resends every packet not acknowledged; full duplex resends the
    /// oldest alone. Either way the timeout doubles until something gets through.
    mutating func expireTimers(at now: Double) {
        if !fullDuplex {
            guard let due = answerDue, now >= due else { return }
            answerDue = nil
            statistics.timeouts += 1
            timer.backOff()
            // A missing answer may be a lost acknowledgement or a stall, but on a line so bad that
            // nothing gets through it is the only evidence: the size follows it.
            for i in flight.indices where !flight[i].sacked && !flight[i].lost {
                flight[i].lost = true
                sizer.record(lost: true)
            }
            return
        }
        guard let i = oldestWaiting, now >= waitingDeadline(i) else { return }
        statistics.timeouts += 1
        timer.backOff()
        flight[i].lost = true
        sizer.record(lost: true)
    }
}
