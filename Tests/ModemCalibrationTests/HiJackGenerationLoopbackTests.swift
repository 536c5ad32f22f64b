import ModemCalibration
import ModemDSP
import Testing

/// `loopback --hijack-profile`: each HiJack generation's byte test runs in its own line code
/// and comes back exact over a clean path, at both common rates and through an inverting one.
@Suite struct HiJackGenerationLoopbackTests {
    @Test(arguments: HiJackGeneration.allCases, [44_100.0, 48_000.0])
    func eachGenerationsBytesComeBack(generation: HiJackGeneration, rate: Double) throws {
        for inverted in [false, true] {
            let channel = LoopbackChannel(delay: 2345, inverted: inverted, sampleRate: rate)
            let r = LoopbackTest(sampleRate: rate, hijackGeneration: generation).run(channel.path)
            let hijack = try #require(r.bytes.last)
            #expect(hijack.modem == generation.name)
            #expect(hijack.sent == 8 && hijack.received == 8 && hijack.byteErrors == 0, "\(hijack)")
            #expect(r.verdict.status != .fail, "\(r.verdict)")
        }
    }

    /// A lab11 burst is one packet: its last byte is the sum of the others, or no receiver
    /// delivers it (the test's first version sent raw bytes and none came back).
    @Test func aLab11BurstIsOneCheckedPacket() throws {
        let modem = Modem.hijack(HiJackSettings(generation: .lab11))
        let plan = try ByteTestPlan(sampleRate: 44_100, modems: [modem], levelDBFS: -1)
        let bytes = try #require(plan.bursts.first?.bytes)
        #expect(bytes.last == bytes.dropLast().reduce(0, &+))
        #expect(Set(bytes).count > 1)
    }
}
