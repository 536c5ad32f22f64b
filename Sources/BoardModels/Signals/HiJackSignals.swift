public import ModemDSP
import ModemFraming

/// HiJack (Manchester) signals in both directions, and their decoders, for tests and benchmarks.
public enum HiJackSignals {
    /// `count` seeded pseudo-random bytes; for the same seed, not the sequence that
    /// ``TestSignals/randomBytes(_:seed:)`` gives.
    public static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Host -> board audio: `idleBits` of idle lead-in, the bytes, `idleBits` of idle tail.
    public static func hostSignal(
        _ bytes: [UInt8], sampleRate: Double, bytePeriod: Int = HiJack.defaultBytePeriod,
        invert: Bool = false, baud: Double = HiJack.hostBaud, amplitude: Float = 1,
        idleBits: Int = 8
    ) throws -> [Float] {
        var encoder = try HiJackEncoder(
            sampleRate: sampleRate, baud: baud, bytePeriod: bytePeriod, amplitude: amplitude, invert: invert)
        var out = [Float](
            repeating: 0,
            count: encoder.maxSamples(forIdleBits: 2 * idleBits) * 2 + encoder.maxSamples(forBytes: bytes.count))
        let n = out.withUnsafeMutableBufferPointer { buffer in
            var n = encoder.idle(bits: idleBits, into: buffer.baseAddress!)
            n += bytes.withUnsafeBufferPointer { encoder.encode($0, into: buffer.baseAddress! + n) }
            n += encoder.idle(bits: idleBits, into: buffer.baseAddress! + n)
            return n
        }
        out.removeLast(out.count - n)
        return out
    }

    /// Board -> host audio as it reaches the computer.
    public static func boardSignal(
        _ bytes: [UInt8], sampleRate: Double, baud: Double = HiJack.boardBaud, idleBits: Int = 1,
        path: HiJackMicrophonePath? = nil, level: Float = 0.5, generation: HiJackGeneration = .gen1
    ) -> [Float] {
        var transmitter = HiJackBoardTransmitter(
            sampleRate: sampleRate, baud: baud, idleBits: idleBits, level: level, generation: generation)
        var samples: [Float] = []
        transmitter.render(transmitter.halfBits(for: bytes, leadingIdleBits: 20), into: &samples)
        transmitter.render(transmitter.halfBits(for: [], leadingIdleBits: 20), into: &samples)
        var line = path ?? HiJackMicrophonePath(sampleRate: sampleRate)
        line.process(&samples)
        return samples
    }

    /// A lab11 packet: header, payload, then the 8-bit sum of both.
    public static func lab11Packet(_ header: UInt8, _ payload: [UInt8]) -> [UInt8] {
        HiJackLab11Packet(header: header, payload: payload).raw
    }

    /// lab11 board -> host audio: each packet its own burst, the pin floating (low) for 30
    /// bits around them, through the microphone path (inverted on request).
    public static func lab11BoardSignal(
        _ packets: [[UInt8]], sampleRate: Double, baud: Double = HiJackGeneration.lab11.boardBaud,
        invert: Bool = false, level: Float = 0.5
    ) -> [Float] {
        var transmitter = HiJackBoardTransmitter(sampleRate: sampleRate, baud: baud, level: level, generation: .lab11)
        var samples: [Float] = []
        for packet in packets {
            transmitter.render(transmitter.halfBits(for: packet, leadingIdleBits: 30), into: &samples)
        }
        transmitter.render(transmitter.halfBits(for: [], leadingIdleBits: 30), into: &samples)
        var line = HiJackMicrophonePath(sampleRate: sampleRate, invert: invert)
        line.process(&samples)
        return samples
    }

    /// Runs the decoder over `samples` in chunks of random sizes (0 included).
    public static func decode(
        _ samples: [Float], sampleRate: Double, seed: UInt64 = 7, generation: HiJackGeneration = .gen1
    ) throws -> (bytes: [UInt8], decoder: HiJackDecoder, events: [ModemEvent]) {
        var decoder = try HiJackDecoder(sampleRate: sampleRate, generation: generation)
        var rng = SeededGenerator(seed: seed)
        var events: [ModemEvent] = []
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(Int.random(in: 0...1500, using: &rng), all.count - i)
                decoder.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), into: &events)
                i += n
            }
        }
        decoder.flush(into: &events)
        return (events.filter { $0.kind == .byte }.map(\.value), decoder, events)
    }

    /// Runs the Gen 1 board's receiver model over `samples` in chunks of 777 and returns it,
    /// with its bytes and aborts.
    public static func boardReceive(_ samples: [Float], sampleRate: Double) -> HiJackBoardReceiver {
        var board = HiJackBoardReceiver(sampleRate: sampleRate)
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(777, all.count - i)
                board.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
        return board
    }
}
