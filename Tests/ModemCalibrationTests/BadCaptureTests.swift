import ModemCalibration
import ModemDSP
import Testing

/// What a broken capture gives the analysis (empty, short, NaN, full-scale noise): a "nothing
/// came back" report, never a trap or a made-up measurement.
@Suite struct BadCaptureTests {
    static let test = LoopbackTest(sampleRate: 44_100, hijack: true)

    static var captures: [[Float]] {
        let n = test.plan.signal.count
        var noise = GaussianNoise(standardDeviation: 0.5, seed: 9)
        var loud = [Float](repeating: 0, count: n)
        loud.withUnsafeMutableBufferPointer { noise.add(to: $0) }
        return [
            [], [0.5, -0.5, 1], [Float](repeating: .nan, count: n), [Float](repeating: .infinity, count: n / 2), loud,
        ]
    }

    @Test func brokenCapturesReportNothingCameBack() {
        for capture in Self.captures {
            let r = Self.test.run { _, _ in capture }
            #expect(!r.measurements.signalReturned, "\(capture.count) samples")
            #expect(r.measurements.latencySeconds == nil)
            #expect(r.bytes.isEmpty)
            #expect(r.verdict.status == .fail)
        }
    }

    @Test func byteTestOnBrokenCapturesCountsEveryByteLost() throws {
        let plan = try ByteTestPlan(
            sampleRate: 44_100, modems: [.fsk(FSKSettings(profile: .softmodem1225))], levelDBFS: -6)
        for capture in Self.captures {
            let results = ByteTestAnalyzer(plan: plan).analyse(capture)
            #expect(results.count == 1)
            #expect(results.allSatisfy { !$0.passed && $0.byteErrors == $0.sent && $0.sent == 32 })
        }
    }

    @Test func timelineFitsItsStatedLength() {
        // About 15 s with every profile and HiJack: the measurement part and the byte part.
        #expect((12...18).contains(Self.test.estimatedSeconds), "\(Self.test.estimatedSeconds)")
        #expect(Self.test.plan.sweep.first?.frequency == 200)
        #expect((Self.test.plan.sweep.last?.frequency ?? 0) <= 0.45 * 44_100)
    }
}
