import ModemDSP
import ModemFraming

/// How often each impairment strikes. The audio channel and the byte channel use the same
/// numbers, so a byte-level run stands in for the modem where full modulation is too slow.
struct Impairments {
    /// Chance per burst of a burst of loud noise (5-30 ms) somewhere in it.
    var noiseBurst = 0.05
    /// Chance per burst of a span of samples (1-15 ms) vanishing.
    var droppedSpan = 0.05
    /// Chance per received byte of being corrupted.
    var corruptByte = 0.01
    /// Chance per burst of arriving twice.
    var duplicate = 0.02
    /// Chance per burst of being held back and delivered after the next one.
    var reorder = 0.02
}

/// Counts what the channel did, to prove the impairments really happened.
struct ChannelLog {
    var bursts = 0
    var largestBurstToReceiver = 0
    var noiseBursts = 0
    var droppedSpans = 0
    var corruptedBytes = 0
    var duplicates = 0
    var reorders = 0
    var samples = 0
}

/// Burst-level impairments shared by both channels: duplication and reordering.
struct BurstShuffler {
    var held: [LinkDirection: [UInt8]] = [:]

    mutating func apply(
        _ received: [UInt8], direction: LinkDirection, impairments: Impairments,
        rng: inout SeededGenerator, log: inout ChannelLog
    ) -> [UInt8] {
        var out: [UInt8] = []
        if rng.nextUnit() < impairments.reorder && held[direction] == nil {
            held[direction] = received
            log.reorders += 1
            return []
        }
        out = received
        if let late = held.removeValue(forKey: direction) { out += late }
        if rng.nextUnit() < impairments.duplicate {
            out += received
            log.duplicates += 1
        }
        return out
    }
}

/// The project's modem end to end: BurstEncoder/FSKModulator -> noise bursts and dropped
/// spans of samples -> FSKDemodulator -> corrupted bytes -> duplicated/reordered bursts.
struct ModemChannel: HalfDuplexChannel {
    var encoder: BurstEncoder
    var demodulators: [LinkDirection: FSKDemodulator]
    var impairments: Impairments
    var rng: SeededGenerator
    var noise: GaussianNoise
    var shuffler = BurstShuffler()
    var log = ChannelLog()
    let sampleRate = 44_100.0
    let preambleBits: Int

    init(impairments: Impairments, seed: UInt64, preambleBits: Int = 20) throws {
        let modulator = try FSKModulator(profile: .softmodem1225, sampleRate: sampleRate, amplitude: 0.5)
        encoder = BurstEncoder(modulator: modulator, preambleBits: preambleBits, postambleBits: 7)
        let config = DemodulatorConfiguration(profile: .softmodem1225, sampleRate: sampleRate)
        demodulators = [.toReceiver: try FSKDemodulator(config), .toSender: try FSKDemodulator(config)]
        self.impairments = impairments
        rng = SeededGenerator(seed: seed)
        noise = GaussianNoise(standardDeviation: 0.02, seed: seed ^ 0xABCDEF)
        self.preambleBits = preambleBits
    }

    mutating func carry(_ burst: [UInt8], direction: LinkDirection) -> (received: [UInt8], airtime: Double) {
        log.bursts += 1
        if direction == .toReceiver { log.largestBurstToReceiver = max(log.largestBurstToReceiver, burst.count) }
        var samples = encoder.burst(burst, leadingSilence: 64, trailingSilence: 64)
        let airtime = Double(samples.count) / sampleRate
        noise.add(to: &samples)
        if rng.nextUnit() < impairments.noiseBurst {
            log.noiseBursts += 1
            let length = Int((0.005 + 0.025 * rng.nextUnit()) * sampleRate)
            let start = Int(rng.nextUnit() * Double(samples.count))
            var loud = GaussianNoise(standardDeviation: 0.5, seed: rng.next())
            for i in start..<min(samples.count, start + length) { samples[i] += Float(loud.next()) }
        }
        if rng.nextUnit() < impairments.droppedSpan {
            log.droppedSpans += 1
            let length = Int((0.001 + 0.014 * rng.nextUnit()) * sampleRate)
            let start = Int(rng.nextUnit() * Double(samples.count))
            samples.removeSubrange(start..<min(samples.count, start + length))
        }
        log.samples += samples.count
        var events: [ModemEvent] = []
        samples.withUnsafeBufferPointer { demodulators[direction]!.process($0, into: &events) }
        demodulators[direction]!.flush(into: &events)
        var received = events.filter { $0.kind == .byte }.map(\.value)
        for i in received.indices where rng.nextUnit() < impairments.corruptByte {
            received[i] ^= UInt8(1 + rng.next() % 255)
            log.corruptedBytes += 1
        }
        return (shuffler.apply(received, direction: direction, impairments: impairments, rng: &rng, log: &log), airtime)
    }
}

/// The same impairment statistics applied to bytes: a noise burst garbles a run of bytes,
/// a dropped span deletes one; airtime follows the link configuration's formula.
struct ByteChannel: HalfDuplexChannel {
    var impairments: Impairments
    var configuration: LinkConfiguration
    var rng: SeededGenerator
    var shuffler = BurstShuffler()
    var log = ChannelLog()

    init(impairments: Impairments, configuration: LinkConfiguration, seed: UInt64) {
        self.impairments = impairments
        self.configuration = configuration
        rng = SeededGenerator(seed: seed)
    }

    mutating func carry(_ burst: [UInt8], direction: LinkDirection) -> (received: [UInt8], airtime: Double) {
        log.bursts += 1
        if direction == .toReceiver { log.largestBurstToReceiver = max(log.largestBurstToReceiver, burst.count) }
        var received = burst
        let byteTime = 10 / configuration.baud
        if rng.nextUnit() < impairments.noiseBurst, !received.isEmpty {
            log.noiseBursts += 1
            let run = max(1, Int((0.005 + 0.025 * rng.nextUnit()) / byteTime) + 1)
            let start = Int(rng.next() % UInt64(received.count))
            for i in start..<min(received.count, start + run) { received[i] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        if rng.nextUnit() < impairments.droppedSpan, !received.isEmpty {
            log.droppedSpans += 1
            let run = max(1, Int((0.001 + 0.014 * rng.nextUnit()) / byteTime) + 1)
            let start = Int(rng.next() % UInt64(received.count))
            received.removeSubrange(start..<min(received.count, start + run))
        }
        for i in received.indices where rng.nextUnit() < impairments.corruptByte {
            received[i] ^= UInt8(1 + rng.next() % 255)
            log.corruptedBytes += 1
        }
        return (
            shuffler.apply(received, direction: direction, impairments: impairments, rng: &rng, log: &log),
            configuration.airtime(bytes: burst.count)
        )
    }
}
