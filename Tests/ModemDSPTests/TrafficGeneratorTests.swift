import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

@Suite("Traffic generator")
struct TrafficGeneratorTests {
    static func fsk(_ profile: ModemProfile = .softmodem1225, seed: UInt64 = 3) throws -> TrafficGenerator<BurstEncoder>
    {
        let modulator = try FSKModulator(profile: profile, sampleRate: 44_100, amplitude: 0.5)
        return TrafficGenerator(
            transmitter: BurstEncoder(modulator: modulator), burstBytes: 40, gapSeconds: 0.05, seed: seed)
    }

    @Test("an FSK signal has exactly the frames asked for and decodes to the bytes it reports")
    func fskRoundTrip() throws {
        for profile in ModemProfile.builtIn {
            var generator = try Self.fsk(profile)
            let traffic = generator.signal(frames: 3 * 44_100 + 17)
            #expect(traffic.samples.count == 3 * 44_100 + 17)
            #expect(!traffic.bytes.isEmpty)
            #expect(try TestSignals.decode(traffic.samples, profile: profile) == traffic.bytes, "\(profile.name)")
            // A sine of peak 0.5 has power 0.125; preamble and characters are all tone.
            #expect(abs(traffic.burstPower - 0.125) < 0.01, "\(profile.name): \(traffic.burstPower)")
        }
    }

    @Test("the same seed gives the same bytes and samples; the streaming bursts are the signal's")
    func repeatable() throws {
        var a = try Self.fsk()
        var b = try Self.fsk()
        var c = try Self.fsk(seed: 4)
        let first = a.signal(frames: 44_100)
        let second = b.signal(frames: 44_100)
        #expect(first.samples == second.samples && first.bytes == second.bytes)
        #expect(c.signal(frames: 44_100).bytes != first.bytes)

        // Two full bursts fit in a second (0.05 s rest + 457 bits at 1225 baud each); the
        // signal cuts the third short, so only the first two are compared.
        var streaming = try Self.fsk()
        var out = [Float](repeating: 0, count: streaming.maxFrames(forBytes: 40))
        var samples: [Float] = []
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let n = out.withUnsafeMutableBufferPointer { streaming.nextBurst(count: 40, into: $0.baseAddress!) }
            samples += out[0..<n]
            bytes += streaming.lastBurst
        }
        let same = samples.count < first.samples.count && first.samples.prefix(samples.count).elementsEqual(samples)
        #expect(same, "the streamed bursts are the signal's first \(samples.count) samples")
        #expect(first.bytes.starts(with: bytes) && first.bytes.count > bytes.count)
    }

    @Test("a signal too short for any burst is the line at rest, with no bytes")
    func tooShort() throws {
        var generator = try Self.fsk(.softmodem126)
        let traffic = generator.signal(frames: 1000)
        #expect(traffic.samples.count == 1000 && traffic.bytes.isEmpty && traffic.burstPower == 0)
        #expect(traffic.samples.allSatisfy { $0 == 0 })
        #expect(generator.signal(frames: 0).samples.isEmpty)
    }

    @Test("HiJack: the data channel of the stereo transmitter decodes to the bytes")
    func hijack() throws {
        let rate = 44_100.0
        let encoder = try HiJackEncoder(
            sampleRate: rate, baud: HiJack.boardBaud,
            bytePeriod: HiJack.frameBits + HiJack.minimumIdleBits, amplitude: 0.5)
        let tone = try HiJackPowerTone(frequency: HiJack.defaultPowerTone(sampleRate: rate), sampleRate: rate)
        var generator = TrafficGenerator(
            transmitter: try HiJackTransmitter(encoder: encoder, tone: tone),
            burstBytes: 50, gapSeconds: 0.1, seed: 9)
        let traffic = generator.signal(frames: Int(2 * rate))
        #expect(traffic.samples.count == Int(2 * rate))
        #expect(traffic.bytes.count > 100)
        #expect(try HiJackSignals.decode(traffic.samples, sampleRate: rate).bytes == traffic.bytes)
        // The right channel (the power tone) is something else entirely.
        var right = TrafficGenerator(
            transmitter: try HiJackTransmitter(encoder: encoder, tone: tone),
            burstBytes: 50, gapSeconds: 0.1, seed: 9)
        #expect(right.signal(frames: Int(2 * rate), channel: 1).samples != traffic.samples)
    }
}
