import BoardModels
import ModemDSP
import ModemTestSupport
import RealModule
import Testing

/// The encoder against the model of the board's receiver (PROTOCOLS.md 2.1, 2.2).
@Suite struct HostToBoardTests {
    @Test(arguments: [44_100.0, 48_000.0, 96_000.0])
    func boardReceiverDecodesEncoderOutput(sampleRate: Double) throws {
        let bytes = HiJackSignals.randomBytes(40, seed: UInt64(sampleRate))
        let board = HiJackSignals.boardReceive(
            try HiJackSignals.hostSignal(bytes, sampleRate: sampleRate), sampleRate: sampleRate)
        #expect(board.bytes == bytes)
        #expect(board.aborts == 0)
    }

    @Test(arguments: [44_100.0, 48_000.0, 96_000.0])
    func shortestBytePeriodStillDecodes(sampleRate: Double) throws {
        let bytes = HiJackSignals.randomBytes(200, seed: 11) + [0x00, 0xFF, 0x55, 0xAA]
        let signal = try HiJackSignals.hostSignal(bytes, sampleRate: sampleRate, bytePeriod: 14)
        #expect(HiJackSignals.boardReceive(signal, sampleRate: sampleRate).bytes == bytes)
    }

    /// A real headphone output: AC coupling, the DAC's reconstruction low-pass, -30 dB of the
    /// power tone leaking from the right channel, and a volume 12 dB down.
    @Test(arguments: [44_100.0, 48_000.0])
    func boardDecodesThroughAHeadphoneOutput(sampleRate: Double) throws {
        let bytes = HiJackSignals.randomBytes(60, seed: 17)
        var signal = try HiJackSignals.hostSignal(bytes, sampleRate: sampleRate, bytePeriod: 20)
        var coupling = SecondOrderSection(.highPass, frequency: 20, sampleRate: sampleRate, q: 0.5)
        var reconstruction = SecondOrderSection(.lowPass, frequency: 16_000, sampleRate: sampleRate)
        coupling.process(&signal)
        reconstruction.process(&signal)
        var leak = try HiJackPowerTone(
            frequency: HiJack.defaultPowerTone(sampleRate: sampleRate), sampleRate: sampleRate, amplitude: 0.0316)
        var tone = [Float](repeating: 0, count: signal.count)
        tone.withUnsafeMutableBufferPointer { leak.render(into: $0.baseAddress!, count: $0.count) }
        for i in signal.indices { signal[i] = 0.25 * signal[i] + tone[i] }
        let board = HiJackSignals.boardReceive(signal, sampleRate: sampleRate)
        #expect(board.bytes == bytes)
    }

    @Test func invertOptionCompensatesAnInvertingPath() throws {
        let bytes = HiJackSignals.randomBytes(30, seed: 3)
        let inverted = try HiJackSignals.hostSignal(bytes, sampleRate: 44_100, invert: true).map { -$0 }
        #expect(HiJackSignals.boardReceive(inverted, sampleRate: 44_100).bytes == bytes)
        // Without the option an inverting path gives the board garbage, which is why it exists.
        let plain = try HiJackSignals.hostSignal(bytes, sampleRate: 44_100).map { -$0 }
        #expect(HiJackSignals.boardReceive(plain, sampleRate: 44_100).bytes != bytes)
    }

    /// The model enforces the firmware's start rule: with a single idle 1 before a start bit
    /// the byte is lost, with 4 it arrives. This is why the encoder never sends fewer than 4.
    @Test func boardNeedsIdleOnesBeforeAStartBit() throws {
        var encoder = try HiJackEncoder(sampleRate: 44_100)
        var out = [Float](repeating: 0, count: 200 * encoder.maxSamplesPerBit)
        var n = 0
        func send(_ bits: [UInt8]) {
            for b in bits {
                n += out.withUnsafeMutableBufferPointer { encoder.encodeBit(b, into: $0.baseAddress! + n) }
            }
        }
        func frame(_ byte: UInt8) -> [UInt8] {
            [0] + (0..<8).map { (byte >> UInt8($0)) & 1 } + [HiJack.evenParity(byte)]
        }
        let idle = [UInt8](repeating: 1, count: 8)
        send(idle + frame(0x41) + [1] + frame(0x00) + [1, 1, 1, 1] + frame(0x43) + idle)
        #expect(HiJackSignals.boardReceive(Array(out[0..<n]), sampleRate: 44_100).bytes == [0x41, 0x43])
    }

    @Test func idleLineIsAPureSineAtTheBitRate() throws {
        var encoder = try HiJackEncoder(sampleRate: 44_100)
        var out = [Float](repeating: 0, count: encoder.maxSamples(forIdleBits: 10))
        let n = out.withUnsafeMutableBufferPointer { encoder.idle(bits: 10, into: $0.baseAddress!) }
        #expect(n == 320)
        var worst: Float = 0
        for i in 0..<n {
            let expected = Float(Double.sin(2 * Double.pi * 1378.125 * Double(i) / 44_100))
            worst = max(worst, abs(out[i] - expected))
        }
        #expect(worst < 1e-5)
    }

    @Test func framesFillTheBytePeriod() throws {
        var encoder = try HiJackEncoder(sampleRate: 44_100, bytePeriod: 100)
        var out = [Float](repeating: 0, count: encoder.maxSamples(forBytes: 3))
        let n = out.withUnsafeMutableBufferPointer { o in
            [UInt8(1), 2, 3].withUnsafeBufferPointer { encoder.encode($0, into: o.baseAddress!) }
        }
        #expect(n == 3 * 100 * 32)
        // A 1 -> 0 change is one half cycle at half the bit rate: the start bit after idle
        // gives a positive hump lasting one whole cell (32 samples) with no zero crossing.
        var longest = 0
        var run = 0
        for i in 1..<n {
            if (out[i - 1] > 0) == (out[i] > 0) {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        #expect(longest >= 30 && longest <= 33)
        let empty = out.withUnsafeMutableBufferPointer { o in
            [UInt8]().withUnsafeBufferPointer { encoder.encode($0, into: o.baseAddress!) }
        }
        #expect(empty == 0)
    }

    @Test func impossibleSettingsAreRejected() {
        #expect(throws: HiJackConfigurationError.bytePeriodTooShort(13)) {
            try HiJackEncoder(sampleRate: 44_100, bytePeriod: 13)
        }
        #expect(throws: HiJackConfigurationError.self) { try HiJackEncoder(sampleRate: 44_100, baud: 900) }
        #expect(throws: HiJackConfigurationError.self) { try HiJackEncoder(sampleRate: 4_000) }
        #expect(throws: HiJackConfigurationError.self) { try HiJackEncoder(sampleRate: .nan) }
        #expect(throws: HiJackConfigurationError.self) { try HiJackEncoder(sampleRate: 44_100, amplitude: 1.5) }
        #expect(throws: HiJackConfigurationError.self) { try HiJackPowerTone(frequency: 30_000, sampleRate: 48_000) }
        #expect(throws: HiJackConfigurationError.self) { try HiJackPowerTone(frequency: 0, sampleRate: 48_000) }
        #expect(throws: HiJackConfigurationError.self) { try HiJackDecoder(sampleRate: 1_000_000) }
    }

    @Test func powerToneAtHalfTheRateAlternates() throws {
        var tone = try HiJackPowerTone(frequency: 22_050, sampleRate: 44_100, amplitude: 0.9)
        var out = [Float](repeating: 0, count: 64)
        out.withUnsafeMutableBufferPointer { tone.render(into: $0.baseAddress!, count: 64) }
        for i in 0..<64 { #expect(abs(out[i] - (i % 2 == 0 ? 0.9 : -0.9)) < 1e-5) }
    }

    @Test func powerToneFrequencyAndSilence() throws {
        var tone = try HiJackPowerTone(frequency: 21_000, sampleRate: 48_000)
        var out = [Float](repeating: 0, count: 48_000)
        // Rendered in two pieces to check phase continuity.
        out.withUnsafeMutableBufferPointer {
            tone.render(into: $0.baseAddress!, count: 1000)
            tone.render(into: $0.baseAddress! + 1000, count: 47_000)
        }
        var crossings = 0
        for i in 1..<out.count where (out[i - 1] < 0) != (out[i] < 0) { crossings += 1 }
        #expect(abs(crossings - 42_000) <= 2)
        var quiet = try HiJackPowerTone(frequency: 21_000, sampleRate: 48_000, amplitude: 0)
        out.withUnsafeMutableBufferPointer { quiet.render(into: $0.baseAddress!, count: 1000) }
        #expect(out[0..<1000].allSatisfy { $0 == 0 })
    }
}

/// The transmitter live playback and file encoding use: bytes in pieces of any size, bursts
/// closed and reopened, rests between; the power tone never stops.
@Suite struct TransmitterTests {
    @Test(arguments: [44_100.0, 48_000.0])
    func boardDecodesBytesSentInPiecesOfAnySize(sampleRate: Double) throws {
        let bytes = HiJackSignals.randomBytes(25, seed: 21)
        let encoder = try HiJackEncoder(sampleRate: sampleRate, bytePeriod: 14)
        let tone = try HiJackPowerTone(
            frequency: HiJack.defaultPowerTone(sampleRate: sampleRate), sampleRate: sampleRate)
        var tx = try HiJackTransmitter(encoder: encoder, tone: tone, idleLine: true)
        #expect(throws: HiJackConfigurationError.self) {
            try HiJackTransmitter(encoder: encoder, tone: try HiJackPowerTone(frequency: 20_000, sampleRate: 96_000))
        }
        #expect(tx.channels == 2)
        var rng = SeededGenerator(seed: 4)
        var left: [Float] = []
        var right: [Float] = []
        let maxRest = 700
        var block = [Float](
            repeating: 0, count: 2 * max(tx.maxFrames(forBytes: 5), tx.maxFramesForFinish, maxRest + tx.restOvershoot))
        func keep(_ frames: Int) {
            for i in 0..<frames {
                left.append(block[2 * i])
                right.append(block[2 * i + 1])
            }
        }
        func rest(_ frames: Int) {
            keep(block.withUnsafeMutableBufferPointer { tx.rest(atLeast: frames, into: $0.baseAddress!) })
        }
        rest(maxRest)
        var sent = 0
        while sent < bytes.count {
            let n = min(Int.random(in: 1...5, using: &rng), bytes.count - sent)
            keep(
                bytes[sent..<(sent + n)].withUnsafeBufferPointer { b in
                    block.withUnsafeMutableBufferPointer { tx.encode(b, into: $0.baseAddress!) }
                })
            sent += n
            if Int.random(in: 0...3, using: &rng) == 0 {
                keep(block.withUnsafeMutableBufferPointer { tx.finishBurst(into: $0.baseAddress!) })
                rest(Int.random(in: 0...maxRest, using: &rng))
            }
        }
        keep(block.withUnsafeMutableBufferPointer { tx.finishBurst(into: $0.baseAddress!) })
        #expect(block.withUnsafeMutableBufferPointer { tx.finishBurst(into: $0.baseAddress!) } == 0)
        rest(maxRest)
        #expect(left.count == right.count)
        #expect(HiJackSignals.boardReceive(left, sampleRate: sampleRate).bytes == bytes)
        #expect(right.map(abs).max()! > 0.99)
    }
}
