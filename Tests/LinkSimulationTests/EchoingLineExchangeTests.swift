import ModemFraming
import Testing

/// The live serial test's whole exchange on the simulated shared line with its noise
/// (``EchoingLinePeerTests``): warm-up bytes each way, 2 KB each way, then two short lines
/// from A, each given 20 s by the program, as `serial_exchange.py` runs it.
extension EchoingLinePeerTests {
    /// Runs a transfer as the program does: queue `bytes` at one end, step until the other has
    /// them or `limit` seconds pass, then a second more; returns the seconds it took.
    static func transfer(_ run: inout Run, from station: Int, _ bytes: [UInt8], limit: Double) -> Double {
        let start = run.now
        let target = run.got[1 - station].count + bytes.count
        if station == 0 { run.a.send(bytes) } else { run.b.send(bytes) }
        while run.got[1 - station].count < target && run.now < start + limit { run.step() }
        let took = run.now - start
        run.step(for: 1)
        return took
    }

    /// The short lines after the kilobytes arrive within seconds, whatever the noise met:
    /// an acknowledgement that delivers packets held behind a gap measures nothing, so the
    /// timeout stays near the round trip. (A packet held 60 s behind a lost one measured the
    /// round trip at 60 s, set the timeout to its 30 s ceiling, and a 10-byte line then waited
    /// 39 s behind one lost acknowledgement: 7 of 300 such runs gave a line nothing in its
    /// 20 s, as CI's live test did; seeds 16, 26 and 35 of these among them.)
    @Test(arguments: 1...40)
    func shortLinesAfterTheKilobytesComeWithinSeconds(seed: Int) {
        var run = Run(noisePeriod: 2.3, seed: UInt64(seed) * 7919)
        run.line.noisePhase = Double(seed % 23) * 0.1
        let warm: [UInt8] = [0x55, 0x55, 0x55, 0x55]
        for station in [0, 1] {
            _ = Self.transfer(&run, from: station, warm, limit: 60)
            run.step(for: 2.5)
        }
        let fromA = DuplexLinkTests.file(2048, seed: UInt64(seed))
        let fromB = DuplexLinkTests.file(2048, seed: UInt64(seed) + 1)
        let kilobytes = [
            Self.transfer(&run, from: 0, fromA, limit: 240), Self.transfer(&run, from: 1, fromB, limit: 240),
        ]
        let lines = [Array("reopened\r\n".utf8), Array("4800 7E2\r\n".utf8)].map {
            Self.transfer(&run, from: 0, $0, limit: 20)
        }
        #expect(run.got[1] == warm + fromA + Array("reopened\r\n4800 7E2\r\n".utf8) && run.got[0] == warm + fromB)
        #expect(kilobytes.allSatisfy { $0 < 150 }, "2 KB each way took \(kilobytes) s")
        #expect(lines.allSatisfy { $0 < 10 }, "the two short lines took \(lines) s")
    }
}
