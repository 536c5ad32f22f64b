import ModemFraming
import Testing

/// Two ``ReliablePeer`` stations on a full-duplex path (two one-way lines, no echo: a cable
/// between two machines, snd-aloop's two ends): data both ways at once.
@Suite struct DuplexPeerTests {
    /// Different data each way, and the same data each way (so the two stations' packets and
    /// acknowledgements are the same bytes: neither may be taken for the other's echo).
    @Test(arguments: [22 as UInt64, 21])
    func dataBothWaysAtOnceRunsFullDuplex(seedFromB: UInt64) {
        let config = LinkConfiguration(turnaround: 0.15)
        var a = ReliablePeer(sending: config, receiving: config)
        var b = ReliablePeer(sending: config, receiving: config)
        let fromA = DuplexLinkTests.file(12_000, seed: 21)
        let fromB = DuplexLinkTests.file(12_000, seed: seedFromB)
        a.send(fromA)
        b.send(fromB)
        var toB = OneWayLine(baud: 1225, delay: 0.1, impairments: LineImpairments(corruptByte: 0.002), seed: 23)
        var toA = OneWayLine(baud: 1225, delay: 0.1, impairments: LineImpairments(corruptByte: 0.002), seed: 24)
        var gotA: [UInt8] = []
        var gotB: [UInt8] = []
        var now = 0.0
        while now < 600 && (a.unacknowledgedBytes > 0 || b.unacknowledgedBytes > 0) {
            if let burst = a.nextBurst(at: now, echoDelay: 0.5) { toB.transmit(burst, at: now) }
            if let burst = b.nextBurst(at: now, echoDelay: 0.5) { toA.transmit(burst, at: now) }
            for d in b.receive(toB.arrived(by: now), at: now) { gotB += d.bytes }
            for d in a.receive(toA.arrived(by: now), at: now) { gotA += d.bytes }
            now += 10 / 1225
        }
        #expect(gotB == fromA && gotA == fromB)
        // Equal capabilities on both sides, yet neither took the other's hello for its own echo.
        #expect(!a.lineEchoes && !b.lineEchoes)
        #expect(a.sender.fullDuplex && b.sender.fullDuplex)
        // Both directions at once, each near its own line's rate. Acknowledgements carry each
        // station's tag, so they never equal ours (untagged, the same data both ways gave 20 %
        // here and stalled live bridges completely); with the same data both ways the far end's
        // data packets equal to ours are still dropped as echo and sent again (73-79 %).
        let efficiency = Double(fromA.count) / (now * 122.5)
        #expect(efficiency >= (seedFromB == 21 ? 0.6 : 0.7), "\(efficiency)")
        print(
            "duplex peers: 12000 bytes each way in \(Int(now)) s, \(Int((100 * efficiency).rounded())) % of line rate each way"
        )
    }
}
