import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// The board -> phone direction of hijack-infinity and lab11, decoded from their board
/// models at the rates and impairments the issue names.
@Suite struct GenerationDecodeTests {
    /// A lab11 packet: header, payload, then the 8-bit sum of both.
    static func lab11Packet(_ header: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let body = [header] + payload
        return body + [body.reduce(0, &+)]
    }

    /// Several lab11 packets, each its own burst with the pin floating between them.
    static func lab11Signal(
        _ packets: [[UInt8]], sampleRate: Double, baud: Double, invert: Bool = false, level: Float = 0.5
    ) -> [Float] {
        var transmitter = HiJackBoardTransmitter(
            sampleRate: sampleRate, baud: baud, level: level, generation: .lab11)
        var samples: [Float] = []
        for packet in packets {
            transmitter.render(transmitter.halfBits(for: packet, leadingIdleBits: 30), into: &samples)
        }
        transmitter.render(transmitter.halfBits(for: [], leadingIdleBits: 30), into: &samples)
        var line = HiJackMicrophonePath(sampleRate: sampleRate, invert: invert)
        line.process(&samples)
        return samples
    }

    @Test(arguments: [44_100.0, 48_000, 96_000], [false, true])
    func lab11PacketsBothPolarities(rate: Double, invert: Bool) throws {
        let packets = (0..<6).map { i in Self.lab11Packet(0x43, HiJackSignals.randomBytes(5 + i * 7, seed: UInt64(i))) }
        for drift in [0.95, 1.0, 1.05] {
            let samples = Self.lab11Signal(
                packets, sampleRate: rate, baud: HiJackGeneration.lab11.boardBaud * drift, invert: invert)
            let result = try HiJackSignals.decode(samples, sampleRate: rate, generation: .lab11)
            #expect(result.bytes == packets.flatMap { $0 }, "rate \(rate) drift \(drift) invert \(invert)")
        }
    }

    @Test(arguments: [44_100.0, 48_000, 96_000], [false, true])
    func infinityFramesBothPolarities(rate: Double, invert: Bool) throws {
        let bytes = HiJackSignals.randomBytes(300, seed: 3)
        for baud in [32_768.0 / 28 * 0.95, 32_768.0 / 28, 32_768.0 / 28 * 1.05, 1_499.25, 780] {
            let samples = HiJackSignals.boardSignal(
                bytes, sampleRate: rate, baud: baud, idleBits: 3,
                path: HiJackMicrophonePath(sampleRate: rate, invert: invert), generation: .infinity)
            let result = try HiJackSignals.decode(samples, sampleRate: rate, generation: .infinity)
            #expect(result.bytes == bytes, "rate \(rate) baud \(baud) invert \(invert)")
        }
    }
}

/// A decoder pinned to one generation prints nothing of another's signal.
@Suite struct GenerationMismatchTests {
    static let packets = (0..<20).map { i in
        GenerationDecodeTests.lab11Packet(0x46, HiJackSignals.randomBytes(4 + i * 5, seed: UInt64(40 + i)))
    }

    @Test(arguments: [HiJackGeneration.gen1, .infinity], [44_100.0, 48_000])
    func lab11BoardUnderAFrameGeneration(generation: HiJackGeneration, rate: Double) throws {
        for invert in [false, true] {
            let samples = GenerationDecodeTests.lab11Signal(
                Self.packets, sampleRate: rate, baud: HiJackGeneration.lab11.boardBaud, invert: invert)
            let result = try HiJackSignals.decode(samples, sampleRate: rate, generation: generation)
            #expect(result.bytes.isEmpty, "\(generation) invert \(invert): \(result.bytes.count) bytes")
        }
    }

    @Test(arguments: [HiJackGeneration.gen1, .infinity], [44_100.0, 48_000])
    func frameBoardsUnderLab11(generation: HiJackGeneration, rate: Double) throws {
        let bytes = HiJackSignals.randomBytes(400, seed: 9)
        let baud = generation == .gen1 ? HiJack.boardBaud : 32_768.0 / 28
        let samples = HiJackSignals.boardSignal(
            bytes, sampleRate: rate, baud: baud, idleBits: generation == .gen1 ? 1 : 3, generation: generation)
        let result = try HiJackSignals.decode(samples, sampleRate: rate, generation: .lab11)
        #expect(result.bytes.isEmpty)
    }
}
