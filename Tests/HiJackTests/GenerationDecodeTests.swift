import BoardModels
import ModemDSP
import ModemFraming
import ModemTestSupport
import Testing

/// The board -> phone direction of hijack-infinity and lab11, decoded from their board
/// models at the rates and impairments the issue names.
@Suite struct GenerationDecodeTests {
    static func lab11Packet(_ header: UInt8, _ payload: [UInt8]) -> [UInt8] {
        HiJackSignals.lab11Packet(header, payload)
    }

    static func lab11Signal(
        _ packets: [[UInt8]], sampleRate: Double, baud: Double, invert: Bool = false, level: Float = 0.5
    ) -> [Float] {
        HiJackSignals.lab11BoardSignal(packets, sampleRate: sampleRate, baud: baud, invert: invert, level: level)
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

/// The phone -> board direction of hijack-infinity and lab11: our transmitter against
/// models of each firmware's receiver.
@Suite struct GenerationHostToBoardTests {
    /// The data line (left channel) of a transmitter's bursts, one per message.
    static func hostSignal(
        _ messages: [[UInt8]], generation: HiJackGeneration, sampleRate: Double, invert: Bool = false,
        baudScale: Double = 1, idleLine: Bool = false
    ) throws -> [Float] {
        let encoder = try HiJackEncoder(
            sampleRate: sampleRate, baud: generation.hostBaud * baudScale, bytePeriod: generation.hostBytePeriod,
            invert: invert, generation: generation)
        let tone = try HiJackPowerTone(frequency: 21_000, sampleRate: sampleRate, amplitude: 0)
        var tx = try HiJackTransmitter(
            encoder: encoder, tone: tone, preambleBits: 20, postambleBits: 4, idleLine: idleLine)
        var lead = [Float](repeating: 0, count: 2 * (3000 + tx.restOvershoot))
        let m = lead.withUnsafeMutableBufferPointer { tx.rest(atLeast: 3000, into: $0.baseAddress!) }
        var left: [Float] = stride(from: 0, to: 2 * m, by: 2).map { lead[$0] }
        for message in messages {
            var out = [Float](
                repeating: 0, count: 2 * (tx.maxFrames(forBytes: message.count) + tx.maxFramesForFinish + 2000))
            let n = out.withUnsafeMutableBufferPointer { buffer in
                var n = message.withUnsafeBufferPointer { tx.encode($0, into: buffer.baseAddress!) }
                n += tx.finishBurst(into: buffer.baseAddress! + 2 * n)
                n += tx.rest(atLeast: 1000, into: buffer.baseAddress! + 2 * n)
                return n
            }
            left += stride(from: 0, to: 2 * n, by: 2).map { out[$0] }
        }
        return left
    }

    static func feed<Board>(
        _ samples: [Float], to board: inout Board, _ process: (inout Board, UnsafeBufferPointer<Float>) -> Void
    ) {
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(777, all.count - i)
                process(&board, UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
    }

    @Test(arguments: [44_100.0, 48_000, 96_000], [false, true])
    func infinityBoardReadsOurFrames(rate: Double, invertedPath: Bool) throws {
        let bytes = HiJackSignals.randomBytes(120, seed: 21)
        for scale in [0.95, 1.0, 1.05] {
            var signal = try Self.hostSignal(
                [bytes], generation: .infinity, sampleRate: rate, invert: invertedPath, baudScale: scale)
            if invertedPath { signal = signal.map { -$0 } }
            var board = HiJackInfinityBoardReceiver(sampleRate: rate)
            Self.feed(signal, to: &board) { $0.process($1) }
            #expect(board.bytes == bytes, "rate \(rate) scale \(scale)")
            #expect(board.parityErrors == 0)
        }
    }

    @Test(arguments: [44_100.0, 48_000, 96_000], [false, true])
    func lab11BoardReadsOurPackets(rate: Double, invertedPath: Bool) throws {
        let packets = (0..<5).map { i in
            HiJackLab11Packet(header: 0x46, payload: HiJackSignals.randomBytes(3 + 9 * i, seed: UInt64(i))).raw
        }
        for scale in [0.95, 1.0, 1.05] {
            // The DCO's spread (4.5-5.4 MHz at RSEL 7, DCO 7). Slower, a half bit is 200 ticks
            // or less and the firmware itself takes half of a preamble interval for the
            // start bit's (its window is +-100 ticks).
            for timerHz in [4_500_000.0 / 8, 5_400_000.0 / 8] {
                var signal = try Self.hostSignal(packets, generation: .lab11, sampleRate: rate, baudScale: scale)
                if invertedPath { signal = signal.map { -$0 } }
                var board = HiJackLab11BoardReceiver(sampleRate: rate, timerHz: timerHz)
                Self.feed(signal, to: &board) { $0.process($1) }
                #expect(board.packets == packets, "rate \(rate) scale \(scale) timer \(timerHz)")
                #expect(board.rejected == 0)
            }
        }
    }
}

/// The phone -> board direction through white noise on the line, as live (the line resting
/// on idle 1s, or lab11's 25 Hz sine): infinity's firmware is exact from 26 dB full-band SNR,
/// lab11's from 30 dB. The boards have no filter before their comparators and judge every
/// interval against fixed windows, so these are the firmwares' figures (Gen 1's: 14 dB).
@Suite struct GenerationHostToBoardNoiseTests {
    @Test(arguments: [HiJackGeneration.infinity, .lab11])
    func boardReadsUsThroughNoise(generation: HiJackGeneration) throws {
        let bytes = HiJackSignals.randomBytes(120, seed: 21)
        let packets = (0..<10).map { i in
            HiJackLab11Packet(header: 0x46, payload: HiJackSignals.randomBytes(8, seed: UInt64(i))).raw
        }
        for seed in UInt64(1)...3 {
            // A full-scale sine's power, 0.5: the data line's.
            if generation == .infinity {
                let clean = try GenerationHostToBoardTests.hostSignal(
                    [bytes], generation: .infinity, sampleRate: 44_100, idleLine: true)
                var board = HiJackInfinityBoardReceiver(sampleRate: 44_100)
                let noisy = GenerationNoiseTests.noisy(clean, power: 0.5, snr: 26, seed: seed)
                GenerationHostToBoardTests.feed(noisy, to: &board) { $0.process($1) }
                #expect(board.bytes == bytes, "seed \(seed)")
            } else {
                let clean = try GenerationHostToBoardTests.hostSignal(
                    packets, generation: .lab11, sampleRate: 44_100, idleLine: true)
                var board = HiJackLab11BoardReceiver(sampleRate: 44_100)
                let noisy = GenerationNoiseTests.noisy(clean, power: 0.5, snr: 30, seed: seed)
                GenerationHostToBoardTests.feed(noisy, to: &board) { $0.process($1) }
                // Noise where the resting sine crosses zero can start a packet of equal
                // intervals in the firmware, which its sum cannot refuse when it reads as all
                // zeros: the firmware's own weakness, whatever the sender.
                #expect(board.packets.filter { $0.contains { $0 != 0 } } == packets, "seed \(seed)")
            }
        }
    }
}
