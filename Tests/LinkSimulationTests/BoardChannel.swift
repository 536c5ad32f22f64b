import BoardModels
import ModemDSP
import ModemFraming

/// Host and Arduino board through their real-world models: the host's bursts
/// (`BurstEncoder`) go into `ArduinoSoftModemReceiver`, whose 32-slot ring holds 31 bytes
/// and drops the rest; the sketch reads the ring only after each burst (the worst case:
/// a sketch busy in `write()` or elsewhere). The board's ACKs come from
/// `ArduinoSoftModemTransmitter` (square wave, divider, coupling) and are decoded by
/// `FSKDemodulator`. Noise bursts and 1 % corrupted bytes as in ``Impairments``.
struct BoardChannel: HalfDuplexChannel {
    var encoder: BurstEncoder
    var board: ArduinoSoftModemReceiver
    var boardTransmitter: ArduinoSoftModemTransmitter
    var hostDemodulator: FSKDemodulator
    var impairments: Impairments
    var rng: SeededGenerator
    var log = ChannelLog()
    var ringOverflows: Int { board.overflowCount }
    let sampleRate = 44_100.0

    init(impairments: Impairments, seed: UInt64) throws {
        let modulator = try FSKModulator(profile: .softmodem1225, sampleRate: sampleRate, amplitude: 0.9)
        encoder = BurstEncoder(modulator: modulator, preambleBits: 50, postambleBits: 7)
        let timing = ArduinoSoftModemTiming(profile: .softmodem1225)!
        board = ArduinoSoftModemReceiver(timing: timing, sampleRate: sampleRate)
        boardTransmitter = ArduinoSoftModemTransmitter(timing: timing, sampleRate: sampleRate)
        hostDemodulator = try FSKDemodulator(DemodulatorConfiguration(profile: .softmodem1225, sampleRate: sampleRate))
        self.impairments = impairments
        rng = SeededGenerator(seed: seed)
    }

    mutating func carry(_ burst: [UInt8], direction: LinkDirection) -> (received: [UInt8], airtime: Double) {
        log.bursts += 1
        var samples: [Float]
        if direction == .toReceiver {
            log.largestBurstToReceiver = max(log.largestBurstToReceiver, burst.count)
            samples = encoder.burst(burst, leadingSilence: 441, trailingSilence: 441)
        } else {
            samples = []
            boardTransmitter.idle(microseconds: 10_000, into: &samples)
            boardTransmitter.write(burst, into: &samples)
            boardTransmitter.idle(microseconds: 10_000, into: &samples)
        }
        let airtime = Double(samples.count) / sampleRate
        if rng.nextUnit() < impairments.noiseBurst {
            log.noiseBursts += 1
            let length = Int((0.005 + 0.025 * rng.nextUnit()) * sampleRate)
            let start = Int(rng.nextUnit() * Double(samples.count))
            var loud = GaussianNoise(standardDeviation: 0.5, seed: rng.next())
            for i in start..<min(samples.count, start + length) { samples[i] += Float(loud.next()) }
        }
        log.samples += samples.count
        var received: [UInt8]
        if direction == .toReceiver {
            board.process(samples)
            received = board.drain()
        } else {
            var events: [ModemEvent] = []
            samples.withUnsafeBufferPointer { hostDemodulator.process($0, into: &events) }
            hostDemodulator.flush(into: &events)
            received = events.filter { $0.kind == .byte }.map(\.value)
        }
        for i in received.indices where rng.nextUnit() < impairments.corruptByte {
            received[i] ^= UInt8(1 + rng.next() % 255)
            log.corruptedBytes += 1
        }
        return (received, airtime)
    }
}
