import ModemFraming
import Testing

/// Two ``ReliablePeer`` stations on one shared medium, in simulated time: every burst is
/// heard by both stations, the sender's own included (a loopback, crosstalk), and may be
/// damaged on the way.
struct SharedMedium {
    var a: ReliablePeer
    var b: ReliablePeer
    var delivered: [[UInt8]] = [[], []]
    /// Probability that a byte is replaced on its way to a station.
    var damage: Double
    private var random: UInt64
    var now = 0.0

    init(damage: Double = 0, seed: UInt64 = 1) {
        let config = LinkConfiguration(turnaround: 0.25)
        a = ReliablePeer(sending: config, receiving: config)
        b = ReliablePeer(sending: config, receiving: config)
        self.damage = damage
        random = seed
    }

    private mutating func next() -> UInt64 {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return random >> 33
    }

    private mutating func heard(_ burst: [UInt8]) -> [UInt8] {
        burst.map { b in Double(next() % 1_000_000) / 1_000_000 < damage ? UInt8(truncatingIfNeeded: next()) : b }
    }

    /// Runs until both have nothing unacknowledged and no ACK is due, or `limit` seconds pass.
    mutating func run(limit: Double) -> Bool {
        while now < limit {
            for station in 0..<2 {
                let burst = station == 0 ? a.nextBurst(at: now, echoDelay: 0.3) : b.nextBurst(at: now, echoDelay: 0.3)
                guard let burst else { continue }
                now += a.sender.configuration.airtime(bytes: burst.count) + 0.05
                let toA = heard(burst)
                let toB = heard(burst)
                for d in a.receive(toA, at: now) { delivered[0] += d.bytes }
                for d in b.receive(toB, at: now) { delivered[1] += d.bytes }
            }
            if a.unacknowledgedBytes == 0 && b.unacknowledgedBytes == 0 && a.receiver.nextDeadline == nil
                && b.receiver.nextDeadline == nil
            {
                return true
            }
            now += 0.02
        }
        return false
    }
}

@Suite struct ReliablePeerTests {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var x = seed
        return (0..<count).map { _ in
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: x >> 40)
        }
    }

    @Test(
        "data both ways arrives once and in order, and no station is handed its own packets", arguments: [0.0, 0.003])
    func bothWaysOverAnEchoingMedium(damage: Double) {
        var medium = SharedMedium(damage: damage, seed: 7)
        let fromA = Self.bytes(2048, seed: 1)
        let fromB = Self.bytes(2048, seed: 2)
        medium.a.send(fromA)
        medium.b.send(fromB)
        #expect(medium.a.unacknowledgedBytes == 2048)
        let finished = medium.run(limit: 3600)
        #expect(finished)
        #expect(medium.delivered[1] == fromA)
        #expect(medium.delivered[0] == fromB)
        #expect(medium.a.echoesDropped > 0 && medium.b.echoesDropped > 0)
        if damage > 0 {
            #expect(medium.a.damagedPackets > 0 && medium.a.sender.statistics.retransmissions > 0)
        } else {
            #expect(medium.a.sender.statistics.retransmissions == 0 && medium.b.sender.statistics.retransmissions == 0)
        }
    }

    @Test func identicalMessagesFromBothStationsStillArrive() {
        var medium = SharedMedium()
        let same = Array("the same line from both ends\r\n".utf8)
        medium.a.send(same)
        medium.b.send(same)
        let finished = medium.run(limit: 600)
        #expect(finished)
        #expect(medium.delivered[0] == same && medium.delivered[1] == same)
    }

    @Test func ourOwnAckDoesNotAcknowledgeOurData() {
        // A station that hears only itself (the far end is gone) must keep its data
        // unacknowledged, however many of its own packets and ACKs come back.
        let config = LinkConfiguration()
        var peer = ReliablePeer(sending: config, receiving: config)
        var other = ReliablePeer(sending: config, receiving: config)
        other.send([1, 2, 3])
        // The far end's data makes us owe it an ACK; then the far end falls silent.
        _ = peer.receive(other.nextBurst(at: 0, echoDelay: 1)!, at: 0.5)
        peer.send(Array(repeating: 9, count: 50))
        var now = 1.0
        for _ in 0..<20 {
            if let burst = peer.nextBurst(at: now, echoDelay: 1) { #expect(peer.receive(burst, at: now + 0.5).isEmpty) }
            now += 1
        }
        #expect(peer.unacknowledgedBytes == 50)
        #expect(peer.echoesDropped > 0)
    }
}
