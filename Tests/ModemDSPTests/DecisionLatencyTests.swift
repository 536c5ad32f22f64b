import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// How long after a character's stop bit ends the demodulator reports it, fed one sample at
/// a time as a live capture would. This is the demodulator's own share of `rx` latency (the
/// sound device's period comes on top), and the live bound is one bit plus one period.
@Suite struct DecisionLatencyTests {
    /// For each reported character, in bits: how far past its stop bit's end the input had
    /// got when it came out.
    static func lateness(_ samples: [Float], profile: ModemProfile, rate: Double) throws -> [(
        value: UInt8, bits: Double
    )] {
        var demod = try FSKDemodulator(DemodulatorConfiguration(profile: profile, sampleRate: rate))
        var events: [ModemEvent] = []
        var out: [(value: UInt8, bits: Double)] = []
        let bit = rate / profile.baud
        samples.withUnsafeBufferPointer { all in
            for i in 0..<all.count {
                demod.process(UnsafeBufferPointer(rebasing: all[i..<(i + 1)]), into: &events)
                for e in events where e.kind == .byte {
                    out.append((e.value, Double(demod.samplesConsumed - e.endSample) / bit))
                    // Fed a sample at a time, a character comes out the moment it can be decided.
                    #expect(e.decidedAt == demod.samplesConsumed)
                }
                events.removeAll(keepingCapacity: true)
            }
        }
        return out
    }

    /// Four bursts of a line, as `tx --keep-open` sends them, with silence between.
    static func lines(profile: ModemProfile, rate: Double) throws -> (text: [UInt8], signal: [Float]) {
        let text = Array("latency!!\n".utf8)
        var signal: [Float] = []
        for _ in 0..<4 {
            signal += try TestSignals.encode(text, profile: profile, rate: rate, amplitude: 0.5, silence: 3000)
        }
        return (Array((0..<4).map { _ in text }.joined()), signal)
    }

    @Test(
        "clean characters come out within a third of a bit, a burst's first within 0.8 bit",
        arguments: [
            (ModemProfile.softmodem1225, 44_100.0), (.softmodem1225, 48_000), (.softmodem1225, 22_050),
            // The library header's 630 baud (a bit of whole segments at 44.1 kHz): the board's
            // real 649.4 baud is not, and is covered by 48 kHz's case.
            (.softmodem2450, 44_100), (ModemProfile.softModemHeaders["softmodem-630"]!, 44_100),
        ])
    func clean(profile: ModemProfile, rate: Double) throws {
        let (text, signal) = try Self.lines(profile: profile, rate: rate)
        let got = try Self.lateness(signal, profile: profile, rate: rate)
        #expect(got.map(\.value) == text)
        let firsts = got.indices.filter { $0 % 10 == 0 }.map { got[$0].bits }
        let rest = got.indices.filter { $0 % 10 != 0 }.map { got[$0].bits }
        // A third of a bit is two segments, plus up to one segment at 48 kHz where a bit
        // is not a whole number of them; a burst's first character also waits for the
        // search past its start.
        #expect(rest.allSatisfy { $0 > 0 && $0 <= 0.5 }, "\(rest)")
        #expect(firsts.allSatisfy { $0 > 0 && $0 <= 0.8 }, "\(firsts)")
    }

    /// `text` as one phase-continuous burst with `idle` idle mark bits after every stop bit,
    /// as live `tx` sends characters that arrive while it is sending: on the sender's clock,
    /// but each one after idle bits.
    static func withIdleBits(_ text: [UInt8], idle: Int, profile: ModemProfile, rate: Double) throws -> [Float] {
        var modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: 0.5)
        var signal = [Float](repeating: 0, count: 3000)
        var buffer = [Float](repeating: 0, count: modulator.maxSamples(forBits: 32))
        // Mark lead-in, then start bit, data LSB first, stop bit and the idle bits.
        let frames: [(bits: UInt32, count: Int)] =
            [((1 << 20) - 1, 20)] + text.map { (~UInt32(0) << 9 | UInt32($0) << 1, 10 + idle) }
        for frame in frames {
            let n = buffer.withUnsafeMutableBufferPointer {
                modulator.render(bits: frame.bits, count: frame.count, into: $0.baseAddress!)
            }
            signal += buffer[..<n]
        }
        return signal + [Float](repeating: 0, count: 3000)
    }

    @Test("characters after idle bits on the sender's clock come out within half a bit", arguments: [1, 2])
    func afterIdleBits(idle: Int) throws {
        let text = Array("latency!!\n".utf8)
        let signal = try Self.withIdleBits(text, idle: idle, profile: .softmodem1225, rate: 44_100)
        let got = try Self.lateness(signal, profile: .softmodem1225, rate: 44_100)
        #expect(got.map(\.value) == text)
        // Idle bits mark a possible restart; a candidate on the clock where the line turns
        // from mark to space still skips the wide search (which would wait 2.4 bits).
        #expect(got.dropFirst().allSatisfy { $0.bits > 0 && $0.bits <= 0.5 }, "\(got.map(\.bits))")
    }

    @Test("in noise, characters the quick look cannot settle wait for the full search and still decode")
    func noisy() throws {
        var (text, signal) = try Self.lines(profile: .softmodem1225, rate: 44_100)
        TestSignals.addNoise(&signal, snr: 0, signalPower: 0.125, seed: 7)
        let got = try Self.lateness(signal, profile: .softmodem1225, rate: 44_100)
        #expect(TestSignals.editDistance(got.map(\.value), text) <= 1)
        // A weak burst's first characters wait until the third confirms it as a modem (two
        // characters more); every later one comes out once decided.
        let late = got.map(\.bits)
        let confirmed = late.indices.filter { $0 % 10 >= 2 }.map { late[$0] }.sorted()
        // Most are settled quickly; none waits longer than the full search needs (a bit
        // and a half past the slowest rate's stop bit, plus the high-pass).
        #expect(confirmed[confirmed.count * 3 / 4] <= 0.5, "\(late)")
        #expect(confirmed.last! <= 2.5, "\(late)")
        #expect(late.allSatisfy { $0 <= 2 * 10 + 2.5 }, "\(late)")
    }
}
