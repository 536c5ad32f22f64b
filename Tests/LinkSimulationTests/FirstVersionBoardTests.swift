import ModemFraming
import Testing

/// A board running the first link version ignores hellos (it knows only data and answers with
/// plain cumulative acknowledgements): the sender must still deliver to it, and must take a far
/// end's full sizes once one answers late.
@Suite struct FirstVersionBoardTests {
    /// Runs `sender` against `receiver` over two one-way lines (0.1 s each way) until the sender
    /// is idle or `limit` seconds pass. Before `answersFrom` seconds the far end hears no hello
    /// (a first-version board throws them away; a far end not started yet hears nothing of it).
    static func run(
        _ sender: inout ReliableSender, _ receiver: inout ReliableReceiver, answersFrom: Double, limit: Double
    ) -> (delivered: [UInt8], seconds: Double) {
        var forward = OneWayLine(baud: 1225, delay: 0.1, impairments: .init(), seed: 1)
        var backward = OneWayLine(baud: 1225, delay: 0.1, impairments: .init(), seed: 2)
        var parser = LinkPacketParser()
        var delivered: [UInt8] = []
        var now = 0.0
        while now < limit && !sender.isIdle {
            if let burst = sender.nextBurst(at: now) { forward.transmit(burst, at: now) }
            for b in forward.arrived(by: now) {
                guard let p = parser.push(b), p.kind != .hello || now >= answersFrom else { continue }
                for d in receiver.receive(p.wireBytes, at: now) { delivered += d.bytes }
            }
            if let answer = receiver.nextBurst(at: now) { backward.transmit(answer, at: now) }
            sender.receive(backward.arrived(by: now), at: now)
            now += 0.01
        }
        return (delivered, now)
    }

    @Test func aBoardThatIgnoresHellosStillGetsEverything() {
        let message = DuplexLinkTests.file(300, seed: 3)
        var sender = ReliableSender(seed: 1)
        sender.send(message)
        var board = ReliableReceiver(configuration: LinkConfiguration(capabilities: .arduinoRing, turnaround: 0.04))
        let (delivered, seconds) = Self.run(&sender, &board, answersFrom: .infinity, limit: 300)
        #expect(delivered == message)
        #expect(sender.assumedFirstVersion && sender.agreed == .arduinoRing)
        // About 10 s of unanswered hellos, then one 20-byte packet a turn (about 0.6 s each).
        #expect(seconds < 40, "\(seconds)")
    }

    @Test func aFarEndThatAnswersLateGetsItsFullSizes() {
        let message = DuplexLinkTests.file(6000, seed: 4)
        var sender = ReliableSender(seed: 2)
        sender.send(message)
        var farEnd = ReliableReceiver(configuration: LinkConfiguration(turnaround: 0.04))
        let (delivered, _) = Self.run(&sender, &farEnd, answersFrom: 15, limit: 600)
        #expect(delivered == message)
        #expect(!sender.assumedFirstVersion && sender.agreed == .host)
    }
}
