public import BoardModels
public import ModemDSP

/// Signals and receivers of the board models (Arduino SoftModem, phone apps), for tests that
/// check the decoder against the boards.
public enum Models {
    /// The same bytes as ``TestSignals/randomBytes(_:seed:)``.
    public static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] { TestSignals.randomBytes(count, seed: seed) }

    /// The linear peak amplitude of `dBFS`: 0 dBFS is 1.
    public static func amplitude(dBFS: Double) -> Float { Float(Decibels.linear(dBFS)) }

    /// What `softmodem encode` writes by default: -1 dBFS peak (or `dBFS`), 50/7 preamble and
    /// postamble, 0.1 s silence around the burst, 16-bit PCM.
    public static func cliEncode(
        _ bytes: [UInt8], dBFS: Double = -1, profile: ModemProfile = .softmodem1225,
        rate: Double = 44_100
    ) throws -> [Float] {
        let modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: amplitude(dBFS: dBFS))
        var encoder = BurstEncoder(modulator: modulator, preambleBits: 50, postambleBits: 7)
        let silence = Int(0.1 * rate)
        return encoder.burst(bytes, leadingSilence: silence, trailingSilence: silence).map(PhoneAppTransmitter.quantise)
    }

    /// Decodes with `FSKDemodulator` and default settings, in chunks (``TestSignals/decode(_:profile:rate:format:squelch:chunk:)``).
    public static func demodulate(
        _ samples: [Float], profile: ModemProfile = .softmodem1225, rate: Double = 44_100,
        chunk: Int = 4096
    ) throws -> [UInt8] {
        try TestSignals.decode(samples, profile: profile, rate: rate, chunk: chunk)
    }

    /// Runs the Arduino receiver model, draining its ring every `chunk` samples as a sketch's
    /// loop() would.
    public static func arduinoReceive(
        _ samples: [Float], timing: ArduinoSoftModemTiming = ArduinoSoftModemTiming(profile: .softmodem1225)!,
        rate: Double = 44_100, chunk: Int = 512
    ) -> [UInt8] {
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

    /// Runs the SoftModem phone app's receiver model (44.1 kHz, 1225 baud) over all of `samples`
    /// and returns the bytes it received.
    public static func phoneReceive(_ samples: [Float]) -> [UInt8] {
        var rx = PhoneAppReceiver()
        rx.process(samples)
        return rx.drain()
    }

    /// Mean power of `samples` (``TestSignals/power(_:)``).
    public static func power(_ samples: [Float]) -> Double { TestSignals.power(samples) }

    /// Edit distance (``TestSignals/editDistance(_:_:)``).
    public static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int { TestSignals.editDistance(a, b) }

    /// A one-line account of how `decoded` differs from `sent`, for failure messages.
    public static func mismatch(_ sent: [UInt8], _ decoded: [UInt8]) -> String {
        let first = zip(sent, decoded).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        return "sent \(sent.count) bytes, decoded \(decoded.count), edit distance \(editDistance(sent, decoded))"
            + (first.map { ", first difference at byte \($0)" } ?? "")
    }

    /// Arduino output for `bytes` written in pieces of `piece` bytes with idle gaps cycling
    /// through `gapsMicroseconds` (0 = back to back). Preambles vary with the gaps, including
    /// the 8-bit wrap (208.5 ms gives 0 bits at 1225 baud).
    public static func arduinoBursts(
        _ bytes: [UInt8], piece: Int, gapsMicroseconds: [Int64] = [0, 5_000, 30_000, 208_500, 250_000],
        profile: ModemProfile = .softmodem1225, rate: Double = 44_100, clockError: Double = 0
    ) -> [Float] {
        var tx = ArduinoSoftModemTransmitter(
            timing: ArduinoSoftModemTiming(profile: profile)!, sampleRate: rate,
            clockError: clockError)
        var out: [Float] = []
        tx.idle(microseconds: 100_000, into: &out)
        var index = 0
        var gap = 0
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
