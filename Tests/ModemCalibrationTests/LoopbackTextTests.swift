import CommandLineText
import Foundation
import ModemCalibration
import Testing

/// `loopback`'s table on stderr and its `--json` on stdout, from reports of a channel model:
/// the figures the analysis measured, in the places scripts and people read them.
@Suite struct LoopbackTextTests {
    static let clean = LoopbackTest(sampleRate: 44_100, hijack: false).run(LoopbackChannel(delay: 700).path)
    static let silent = LoopbackTest(sampleRate: 44_100, hijack: false).run { signal, _ in
        [Float](repeating: 0, count: signal.count)
    }

    static func json(_ r: LoopbackReport) throws -> [String: Any] {
        let text = LoopbackJSON.render(r, playback: "out", capture: "in")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aCleanPathsTableHasItsLatencyBytesAndVerdict() {
        let table = LoopbackTable.render(Self.clean, devices: "out -> in", verbose: false)
        #expect(table.hasPrefix("loopback: out -> in at 44100 Hz\n"))
        // 700 samples at 44.1 kHz.
        #expect(table.contains("latency          15.87 ms round trip"), "\(table)")
        #expect(table.contains("verdict: ok"), "\(table)")
        #expect(table.hasSuffix("\n"))
    }

    @Test func aCleanPathsJSONHoldsTheMeasurements() throws {
        let o = try Self.json(Self.clean)
        #expect(o["playback"] as? String == "out" && o["capture"] as? String == "in")
        #expect(o["signal_returned"] as? Bool == true)
        let latency = try #require(o["latency_seconds"] as? Double)
        #expect(abs(latency - 700 / 44_100) < 1e-4)
        #expect(o["verdict"] as? String == "ok")
        let bytes = try #require(o["bytes"] as? [[String: Any]])
        #expect(!bytes.isEmpty && bytes.allSatisfy { ($0["byte_errors"] as? Int) == 0 })
        #expect((o["response"] as? [[Double]])?.isEmpty == false)
    }

    /// Nothing came back: the table says so and fails; the JSON has nulls where nothing was
    /// measured, never a made-up number.
    @Test func aSilentPathSaysNothingCameBack() throws {
        let table = LoopbackTable.render(Self.silent, devices: "x", verbose: true)
        #expect(table.contains("nothing came back") && table.contains("verdict: fail"), "\(table)")
        let o = try Self.json(Self.silent)
        #expect(o["signal_returned"] as? Bool == false)
        #expect(o["latency_seconds"] is NSNull && o["drift_ppm"] is NSNull)
        #expect(o["verdict"] as? String == "fail")
        #expect((o["advice"] as? [String])?.isEmpty == false)
    }
}
