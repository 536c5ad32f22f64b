import ModemFraming
import Testing

/// Two ``ReliablePeer`` stations on one echoing line (``EchoingLine``: two bridges on one
/// PulseAudio sink), clean and with the live test's noise (50 ms bursts every 2.3 s).
@Suite struct EchoingLinePeerTests {
    struct Run {
        var a: ReliablePeer
        var b: ReliablePeer
        var line: EchoingLine
        var got: [[UInt8]] = [[], []]
        var now = 0.0

        init(noisePeriod: Double, seed: UInt64) {
            // The bridges' settings on PulseAudio: 0.25 s turnaround, about 50 ms of output delay.
            let receiving = LinkConfiguration(turnaround: 0.25)
            let sending = LinkConfiguration(turnaround: 0.3)
            a = ReliablePeer(sending: sending, receiving: receiving, seed: seed)
            b = ReliablePeer(sending: sending, receiving: receiving, seed: seed &+ 1)
            line = EchoingLine(delay: 0.1)
            line.noisePeriod = noisePeriod
        }

        /// Steps until both have nothing unacknowledged and owe no answer, or `limit` seconds pass.
        mutating func run(until limit: Double) {
            while now < limit {
                step()
                if a.unacknowledgedBytes == 0 && b.unacknowledgedBytes == 0 && a.receiver.nextDeadline == nil
                    && b.receiver.nextDeadline == nil
                {
                    return
                }
            }
        }

        /// One 10 ms step: both stations transmit what is due and hear what has arrived.
        mutating func step() {
            if let burst = a.nextBurst(at: now, echoDelay: 0.4) { line.transmit(burst, from: 0, at: now) }
            if let burst = b.nextBurst(at: now, echoDelay: 0.4) { line.transmit(burst, from: 1, at: now) }
            let heard = line.arrived(by: now)
            for d in a.receive(heard, at: now) { got[0] += d.bytes }
            for d in b.receive(heard, at: now) { got[1] += d.bytes }
            now += 0.01
        }

        /// Steps for `seconds`, whatever the stations do.
        mutating func step(for seconds: Double) {
            let end = now + seconds
            while now < end { step() }
        }
    }

    /// One way, then the other, as the live exchange does: each way must come through exactly,
    /// at a useful share of the line despite the noise and the echo. (Bursts of one short
    /// packet carried 17 % of the clean line and 6-10 % of the noisy one; a station's timeout
    /// doubled to 30 s when noise met fresh packets in step with its cycle.)
    @Test(arguments: [(0.0, 0.45), (2.3, 0.15)], [1 as UInt64, 2, 3])
    func oneWayThenTheOther(noise: (period: Double, floor: Double), seed: UInt64) {
        var run = Run(noisePeriod: noise.period, seed: seed * 10)
        let fromA = DuplexLinkTests.file(2048, seed: 5)
        let fromB = DuplexLinkTests.file(2048, seed: 6)
        run.a.send(fromA)
        run.run(until: 1200)
        let first = run.now
        run.b.send(fromB)
        run.run(until: first + 1200)
        let second = run.now - first
        #expect(run.got[1] == fromA && run.got[0] == fromB)
        #expect(run.a.lineEchoes && run.b.lineEchoes)
        let share = [first, second].map { 2048 / ($0 * 122.5) }
        print(
            "echoing line, noise every \(noise.period) s: A->B \(Int(first)) s, B->A \(Int(second)) s, "
                + "\(share.map { Int(($0 * 100).rounded()) }) % of line rate"
        )
        #expect(share.allSatisfy { $0 >= noise.floor }, "\(share)")
    }

    /// Both ways at once on the shared line, with noise: the two stations' timers are jittered
    /// and neither starts while the line carries something, so collisions stay rare (with
    /// equal timers the two hellos collided forever), and both messages arrive exactly. A
    /// station that hears the far end's packets does not back its timeout off (seeds 1-3 took
    /// 101, 136 and 196 s while it did, 97-101 s since).
    @Test(arguments: [1 as UInt64, 2, 3])
    func bothWaysAtOnce(seed: UInt64) {
        var run = Run(noisePeriod: 2.3, seed: seed * 10)
        let fromA = DuplexLinkTests.file(1024, seed: 7)
        let fromB = DuplexLinkTests.file(1024, seed: 8)
        run.a.send(fromA)
        run.b.send(fromB)
        run.run(until: 600)
        #expect(run.got[1] == fromA && run.got[0] == fromB)
        #expect(run.now < 150, "1024 bytes each way took \(run.now) s")
        print(
            "echoing line, both ways at once: 1024 bytes each way in \(Int(run.now)) s, \(run.line.collisions) bytes collided"
        )
    }
}

extension EchoingLinePeerTests {
    /// The live exchange's warm-up: the same 4 bytes from each end in turn (so the two
    /// stations' first data packets, and their acknowledgements, are the same bytes), then
    /// 512 bytes each way. Nothing may arrive late, twice or at the wrong end.
    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func identicalWarmUpBothWaysThenData(seed: UInt64) {
        var run = Run(noisePeriod: 2.3, seed: seed * 100)
        let warm: [UInt8] = [0x55, 0x55, 0x55, 0x55]
        run.a.send(warm)
        run.run(until: 60)
        #expect(run.got[1] == warm && run.got[0].isEmpty, "A's warm-up")
        run.b.send(warm)
        run.run(until: run.now + 60)
        #expect(run.got[0] == warm && run.got[1] == warm, "B's warm-up")
        let fromA = DuplexLinkTests.file(512, seed: 9)
        run.a.send(fromA)
        run.run(until: run.now + 300)
        #expect(run.got[1] == warm + fromA && run.got[0] == warm, "A->B")
    }
}
