import BoardModels
import ModemDSP

/// Signal builders and decoders shared by the board-model tests.
enum Models {
    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: g.next()) }
    }

    static func amplitude(dBFS: Double) -> Float { Float(modelExp(dBFS / 20 * 2.302585092994046)) }

    /// What `softmodem encode` writes by default: -1 dBFS peak (or `dBFS`), 50/7 preamble and
    /// postamble, 0.1 s silence around the burst, 16-bit PCM.
    static func cliEncode(_ bytes: [UInt8], dBFS: Double = -1, profile: ModemProfile = .softmodem1225,
                          rate: Double = 44_100) throws -> [Float] {
        let modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: amplitude(dBFS: dBFS))
        var encoder = BurstEncoder(modulator: modulator, preambleBits: 50, postambleBits: 7)
        let silence = Int(0.1 * rate)
        return encoder.burst(bytes, leadingSilence: silence, trailingSilence: silence).map(PhoneAppTransmitter.quantise)
    }

    /// Decodes with `FSKDemodulator` and default settings, in chunks.
    static func demodulate(_ samples: [Float], profile: ModemProfile = .softmodem1225, rate: Double = 44_100,
                           chunk: Int = 4096) throws -> [UInt8] {
        var demod = try FSKDemodulator(DemodulatorConfiguration(profile: profile, sampleRate: rate))
        var events: [ModemEvent] = []
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(chunk, all.count - i)
                demod.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), into: &events)
                i += n
            }
        }
        demod.flush(into: &events)
        return events.filter { $0.kind == .byte }.map(\.value)
    }

    /// Runs the Arduino receiver model, draining its ring every `chunk` samples as a sketch's
    /// loop() would.
    static func arduinoReceive(_ samples: [Float], timing: ArduinoSoftModemTiming = ArduinoSoftModemTiming(profile: .softmodem1225)!,
                               rate: Double = 44_100, chunk: Int = 512) -> [UInt8] {
        var rx = ArduinoSoftModemReceiver(timing: timing, sampleRate: rate)
        var out: [UInt8] = []
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(chunk, all.count - i)
                rx.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                out += rx.drain()
                i += n
            }
        }
        return out
    }

    static func phoneReceive(_ samples: [Float]) -> [UInt8] {
        var rx = PhoneAppReceiver()
        rx.process(samples)
        return rx.drain()
    }

    /// Mean power of `samples`.
    static func power(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
    }

    /// Edit (Levenshtein) distance: missing, extra and wrong bytes each count one.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// A one-line account of how `decoded` differs from `sent`, for failure messages.
    static func mismatch(_ sent: [UInt8], _ decoded: [UInt8]) -> String {
        let first = zip(sent, decoded).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        return "sent \(sent.count) bytes, decoded \(decoded.count), edit distance \(editDistance(sent, decoded))"
            + (first.map { ", first difference at byte \($0)" } ?? "")
    }

    /// Arduino output for `bytes` written in pieces of `piece` bytes with idle gaps cycling
    /// through `gapsMicroseconds` (0 = back to back). Preambles vary with the gaps, including
    /// the 8-bit wrap (208.5 ms gives 0 bits at 1225 baud).
    static func arduinoBursts(_ bytes: [UInt8], piece: Int, gapsMicroseconds: [Int64] = [0, 5_000, 30_000, 208_500, 250_000],
                              profile: ModemProfile = .softmodem1225, rate: Double = 44_100, clockError: Double = 0) -> [Float] {
        var tx = ArduinoSoftModemTransmitter(timing: ArduinoSoftModemTiming(profile: profile)!, sampleRate: rate,
                                             clockError: clockError)
        var out: [Float] = []
        tx.idle(microseconds: 100_000, into: &out)
        var index = 0, gap = 0
        while index < bytes.count {
            let end = min(bytes.count, index + piece)
            tx.write(Array(bytes[index..<end]), into: &out)
            tx.idle(microseconds: gapsMicroseconds[gap % gapsMicroseconds.count], into: &out)
            gap += 1
            index = end
        }
        tx.idle(microseconds: 100_000, into: &out)
        tx.flush(into: &out)
        return out
    }
}
