import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// Every generation's board -> phone signal through white noise at the lowest full-band SNR
/// at which the comparator front end is exact: +6 dB for the frame generations, +10 dB for
/// lab11, whose packets are lost whole and open with only four preamble 1s (the issue's
/// -2 dB needs a matched-filter receiver: docs/hijack.md, "Sensitivity").
@Suite struct GenerationNoiseTests {
    /// Adds noise at `snr` dB to a signal whose mean power while sending is `power`.
    static func noisy(_ signal: [Float], power: Double, snr: Double, seed: UInt64) -> [Float] {
        var out = signal
        var channel = WhiteNoiseChannel(signalPower: power, snr: snr, seed: seed)
        out.withUnsafeMutableBufferPointer { channel.process($0) }
        return out
    }

    static func exactSNR(_ generation: HiJackGeneration) -> Double { generation == .lab11 ? 10 : 6 }

    @Test(arguments: HiJackGeneration.allCases, [44_100.0, 48_000])
    func boardToPhoneInNoise(generation: HiJackGeneration, rate: Double) throws {
        let level: Float = 0.5
        // A square wave of peak level/2 after the path's AC coupling: power (level/2)^2.
        let power = Double(level * level) / 4
        let clean: [Float]
        let sent: [UInt8]
        switch generation {
        case .lab11:
            let packets = (0..<8).map {
                GenerationDecodeTests.lab11Packet(0x43, HiJackSignals.randomBytes(12, seed: UInt64($0)))
            }
            sent = packets.flatMap { $0 }
            clean = GenerationDecodeTests.lab11Signal(
                packets, sampleRate: rate, baud: generation.boardBaud, level: level)
        default:
            sent = HiJackSignals.randomBytes(100, seed: 5)
            clean = HiJackSignals.boardSignal(
                sent, sampleRate: rate, baud: generation.boardBaud, idleBits: generation == .gen1 ? 1 : 3,
                level: level, generation: generation)
        }
        for seed in UInt64(1)...3 {
            let samples = Self.noisy(clean, power: power, snr: Self.exactSNR(generation), seed: seed)
            let result = try HiJackSignals.decode(samples, sampleRate: rate, generation: generation)
            #expect(result.bytes == sent, "\(generation) \(rate) seed \(seed): \(result.bytes.count) of \(sent.count)")
        }
    }
}
