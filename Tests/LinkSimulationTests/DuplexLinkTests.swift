import ModemDSP
import ModemFraming
import Testing

/// The link on a full-duplex path in simulated time (``DuplexLink``): throughput against line
/// rate, and exactly-once delivery through corruption, asymmetric loss and a stalled far end.
@Suite struct DuplexLinkTests {
    static func file(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    /// Sends `messages` from a host to a far end stating `far`; returns what arrived and the link.
    static func run(
        _ messages: [[UInt8]], far: LinkCapabilities = .host, forward: LineImpairments = .init(),
        backward: LineImpairments = .init(), stall: Stall? = nil, seed: UInt64 = 1, limit: Double = 3000
    ) -> (got: [[UInt8]], link: DuplexLink, finished: Bool) {
        var sender = ReliableSender(configuration: LinkConfiguration(turnaround: 0.15))
        for m in messages { sender.send(m) }
        let receiver = ReliableReceiver(configuration: LinkConfiguration(capabilities: far, turnaround: 0.04))
        var link = DuplexLink(sender: sender, receiver: receiver, forward: forward, backward: backward, seed: seed)
        link.stall = stall
        var collector = MessageCollector()
        let finished = link.run(limit: limit) { collector.add($0) }
        let s = link.sender.statistics
        print(
            "duplex link: \(s.payloadBytes) payload bytes in \(Int(link.now)) s, "
                + "\(Int((100 * link.efficiency).rounded())) % of line rate, \(s.packetsSent) packets, "
                + "\(s.retransmissions) retransmitted, \(s.timeouts) timeouts, payload now \(s.packetPayload), "
                + "round trip \(Int(s.roundTrip * 1000)) ms, \(link.forward.corrupted)/\(link.backward.corrupted) bytes corrupted"
        )
        return (collector.messages, link, finished)
    }

    @Test func aCleanLineRunsNearLineRate() {
        let data = Self.file(20_000, seed: 1)
        let (got, link, finished) = Self.run([data])
        #expect(finished && got == [data])
        #expect(link.sender.statistics.retransmissions == 0)
        #expect(link.sender.fullDuplex && link.sender.agreed?.selective == true)
        #expect(link.efficiency >= 0.85, "\(link.efficiency)")
    }

    @Test func onePercentCorruptedBytesBothWaysStillCarriesHalfTheLine() {
        let data = Self.file(20_000, seed: 2)
        let noisy = LineImpairments(corruptByte: 0.01)
        let (got, link, finished) = Self.run([data], forward: noisy, backward: noisy, seed: 3)
        #expect(finished && got == [data])
        #expect(link.forward.corrupted > 100)
        #expect(link.sender.statistics.packetPayload < LinkCapabilities.host.maxPayload)
        // The floor is half; measured 0.71 (parity repairs most packets where they land).
        #expect(link.efficiency >= 0.6, "\(link.efficiency)")
    }

    /// A packet damaged beyond repair costs one retransmission of that packet, not of the window.
    @Test func oneDamagedPacketIsSentOnceMore() {
        let data = Self.file(5_000, seed: 4)
        var sender = ReliableSender(configuration: LinkConfiguration(turnaround: 0.15))
        sender.send(data)
        let receiver = ReliableReceiver(configuration: LinkConfiguration(turnaround: 0.04))
        var link = DuplexLink(sender: sender, receiver: receiver)
        // Damage 6 bytes (beyond its parity's 4) of the first packet of the fourth burst.
        var collector = MessageCollector()
        var bursts = 0
        var damaged = false
        var now = 0.0
        while now < 600 && !link.sender.isIdle {
            if var burst = link.sender.nextBurst(at: now) {
                bursts += 1
                if bursts == 4 && !damaged {
                    for i in 20..<26 { burst[i] ^= 0x40 }
                    damaged = true
                }
                link.forward.transmit(burst, at: now)
            }
            for d in link.receiver.receive(link.forward.arrived(by: now), at: now) { collector.add(d) }
            if let a = link.receiver.nextBurst(at: now) { link.backward.transmit(a, at: now) }
            link.sender.receive(link.backward.arrived(by: now), at: now)
            now += 10 / 1225
        }
        #expect(collector.messages == [data])
        #expect(link.sender.statistics.retransmissions == 1)
        // Its timer may run out before the next packet's acknowledgement proves it lost.
        #expect(link.sender.statistics.timeouts <= 1)
    }

    /// Acknowledgements lost far more often than data: nothing lost, duplicated or reordered.
    @Test func asymmetricLossDeliversExactlyOnce() {
        let messages = randomMessages(400, seed: 5) + [Self.file(6_000, seed: 6)]
        let (got, link, finished) = Self.run(
            messages, forward: LineImpairments(corruptByte: 0.002, noiseBurstsPerSecond: 0.05),
            backward: LineImpairments(corruptByte: 0.05, noiseBurstsPerSecond: 0.5, dropByte: 0.2), seed: 7)
        #expect(finished && got == messages)
        #expect(link.sender.statistics.retransmissions > 0)
    }

    /// A far end that stalls for 90 s (longer than a window takes to send): probed ever more
    /// rarely, and the transfer resumes.
    @Test func aFarEndThatStallsIsWaitedFor() {
        let data = Self.file(12_000, seed: 8)
        let (got, link, finished) = Self.run([data], stall: Stall(start: 10, seconds: 90), seed: 9)
        #expect(finished && got == [data])
        let s = link.sender.statistics
        #expect(s.timeouts >= 2 && s.timeouts <= 10, "\(s.timeouts)")
        // Probes, then what was sent into the stall, each once.
        #expect(s.retransmissions <= s.timeouts + 32, "\(s.retransmissions)")
    }

    /// A far end that keeps nothing after a gap (the board's second sketch version, which some
    /// boards still run): the sender goes back N. Every loss costs what was in the pipe behind
    /// it, so a noisy line (here 0.5 % damaged bytes and noise bursts, far worse than a cable to
    /// a board) carries much less than it does to a host; measured 0.21.
    @Test func goBackNFarEndGetsEverythingThroughNoise() {
        let goBackN = LinkCapabilities(window: 16, maxPayload: 64, fullDuplex: true, selective: false)
        let data = Self.file(4_000, seed: 10)
        let noisy = LineImpairments(corruptByte: 0.005, noiseBurstsPerSecond: 0.1)
        let (got, link, finished) = Self.run([data], far: goBackN, forward: noisy, backward: noisy, seed: 11)
        #expect(finished && got == [data])
        #expect(link.sender.agreed == goBackN)
        #expect(link.receiver.statistics.held == 0 && link.sender.statistics.retransmissions > 0)
        #expect(link.efficiency >= 0.15, "\(link.efficiency)")
    }

    /// The board's sketch holds 8 packets past a gap: through the same noise each loss costs
    /// only itself, and the line carries more than going back N did (measured 0.21 there).
    @Test func boardSketchRepeatsOnlyWhatWasLost() {
        let data = Self.file(4_000, seed: 10)
        let noisy = LineImpairments(corruptByte: 0.005, noiseBurstsPerSecond: 0.1)
        let (got, link, finished) = Self.run([data], far: .arduinoSketch, forward: noisy, backward: noisy, seed: 11)
        #expect(finished && got == [data])
        #expect(link.sender.agreed == .arduinoSketch)
        #expect(link.receiver.statistics.held > 0)
        print("board sketch through noise: \(Int((100 * link.efficiency).rounded())) % of line rate")
        #expect(link.efficiency >= 0.4, "\(link.efficiency)")
    }

    /// Packets shrink while the line is bad and grow back once it is clean.
    @Test func packetSizeFollowsTheLossRate() {
        var sender = ReliableSender(configuration: LinkConfiguration(turnaround: 0.15))
        sender.send(Self.file(30_000, seed: 12))
        let receiver = ReliableReceiver(configuration: LinkConfiguration(turnaround: 0.04))
        var link = DuplexLink(
            sender: sender, receiver: receiver, forward: LineImpairments(corruptByte: 0.02), seed: 13)
        _ = link.run(limit: 60) { _ in }
        let small = link.sender.statistics.packetPayload
        link.forward.impairments = LineImpairments()
        _ = link.run(limit: 120) { _ in }
        let large = link.sender.statistics.packetPayload
        #expect(small < 80, "\(small)")
        #expect(large > 200, "\(large)")
    }
}
