import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

@Suite("Arduino SoftModem model")
struct ArduinoModelTests {
    @Test("timer constants give the board's real, rounded tones and bit rates")
    func timing() throws {
        let t1225 = try #require(ArduinoSoftModemTiming(profile: .softmodem1225))
        #expect(t1225.tickMicroseconds == 4 && t1225.bitTicks == 204)
        #expect(t1225.markCycleTicks == 34 && t1225.spaceCycleTicks == 51)
        #expect(t1225.markCyclesPerBit == 6 && t1225.spaceCyclesPerBit == 4)
        #expect(t1225.maxPreambleBits == 49)
        #expect(abs(t1225.actualMark - 7353) < 1 && abs(t1225.actualSpace - 4902) < 1)
        #expect(abs(t1225.actualBaud - 1225.5) < 0.1)

        let t630 = try #require(ArduinoSoftModemTiming(profile: .softmodem630))
        #expect(abs(t630.actualMark - 6579) < 1 && abs(t630.actualSpace - 3205) < 1)
        #expect(t630.markBitMicroseconds == 1520 && t630.spaceBitMicroseconds == 1560)

        let t315 = try #require(ArduinoSoftModemTiming(profile: .softmodem315))
        #expect(abs(t315.actualMark - 3289) < 1 && abs(t315.actualSpace - 1603) < 1)
        #expect(abs(Double(t315.markBitMicroseconds + t315.spaceBitMicroseconds) / 2 - 3080) < 20)

        let t126 = try #require(ArduinoSoftModemTiming(profile: .softmodem126))
        #expect(abs(t126.actualMark - 1953) < 1 && abs(t126.actualSpace - 919) < 1)
    }

    @Test("preamble length is (idle / bit + 1) in 8 bits, capped at 49")
    func preambleWrap() throws {
        let timing = try #require(ArduinoSoftModemTiming(profile: .softmodem1225))
        var out: [Float] = []
        var tx = ArduinoSoftModemTransmitter(timing: timing, sampleRate: 44_100, initialIdleMicroseconds: 0)
        #expect(tx.nextPreambleBits == 1)
        tx.write([0x55], into: &out)
        tx.idle(microseconds: 30_000, into: &out)
        #expect(tx.nextPreambleBits == 37)
        tx.write([0x55], into: &out)
        tx.idle(microseconds: 208_500, into: &out)  // 255 bits + 1 wraps to 0
        #expect(tx.nextPreambleBits == 0)
        tx.write([0x55], into: &out)
        tx.idle(microseconds: 100_000, into: &out)
        #expect(tx.nextPreambleBits == 49)
    }

    @Test("one byte lasts 10 bits of 204 ticks plus preamble and push bit; the pin rests at DC")
    func burstDuration() throws {
        let timing = try #require(ArduinoSoftModemTiming(profile: .softmodem1225))
        var tx = ArduinoSoftModemTransmitter(timing: timing, sampleRate: 44_100, initialIdleMicroseconds: 0)
        var out: [Float] = []
        tx.write([0x00], into: &out)  // 1 preamble + 10 + push = 12 bits
        let expected = 12 * 816.0e-6 * 44_100
        #expect(abs(Double(out.count) - expected) <= 1)
        // After the burst, the coupling capacitor pulls the resting pin towards 0.
        tx.idle(microseconds: 200_000, into: &out)
        #expect(abs(out.last!) < 0.01)
        // 1.6 V p-p: the first cycles swing 0...1.6 V until the capacitor charges, then
        // about 0.8 V either side.
        let peak = out.map { abs($0) }.max()!
        #expect(peak > 0.7 && peak <= 1.61)
    }

    @Test("transmitter model into receiver model: 300 bytes, bursts with every preamble length")
    func loopback() throws {
        let bytes = Models.randomBytes(300, seed: 11)
        let signal = Models.arduinoBursts(bytes, piece: 7)
        let decoded = Models.arduinoReceive(signal)
        #expect(decoded == bytes, "\(Models.mismatch(bytes, decoded))")
    }

    @Test("the 32-slot ring keeps 31 bytes and silently drops the rest")
    func ringOverflow() throws {
        let timing = try #require(ArduinoSoftModemTiming(profile: .softmodem1225))
        let bytes = Models.randomBytes(40, seed: 3)
        var signal = try Models.cliEncode(bytes)
        signal += [Float](repeating: 0, count: 4410)
        var rx = ArduinoSoftModemReceiver(timing: timing, sampleRate: 44_100)
        rx.process(signal)
        #expect(rx.available == 31)
        #expect(rx.overflowCount == 9)
        #expect(rx.drain() == Array(bytes.prefix(31)))
    }

    @Test("a character whose stop bit is a space is dropped")
    func stopBitChecked() throws {
        let timing = try #require(ArduinoSoftModemTiming(profile: .softmodem1225))
        var modulator = try FSKModulator(profile: .softmodem1225, sampleRate: 44_100, amplitude: 0.9)
        var samples = [Float](repeating: 0, count: modulator.maxSamples(forBits: 80))
        let n = samples.withUnsafeMutableBufferPointer { b -> Int in
            var n = modulator.render(bits: 0xFFFF, count: 16, into: b.baseAddress!)
            n += modulator.render(bits: UInt32(0x41) << 1, count: 10, into: b.baseAddress! + n)  // stop bit 0
            n += modulator.render(bits: 0xFFFF, count: 16, into: b.baseAddress! + n)
            n += modulator.render(bits: UInt32(0x42) << 1 | 1 << 9, count: 10, into: b.baseAddress! + n)
            n += modulator.render(bits: 0xFFFF, count: 16, into: b.baseAddress! + n)
            return n
        }
        var rx = ArduinoSoftModemReceiver(timing: timing, sampleRate: 44_100)
        rx.process(Array(samples[0..<n]))
        #expect(rx.drain() == [0x42])
        #expect(rx.framingErrorCount >= 1)
    }

    @Test("below the 0.3 V comparator threshold nothing is received")
    func threshold() throws {
        let bytes = Models.randomBytes(20, seed: 5)
        // -12 dBFS at 1 V full scale is 0.25 V peak.
        #expect(Models.arduinoReceive(try Models.cliEncode(bytes, dBFS: -12)).isEmpty)
        // With the volume up, the same file is received.
        #expect(Models.arduinoReceive(try Models.cliEncode(bytes, dBFS: -6)) == bytes)
    }

    @Test("receiver tolerates the transmitter's clock 2 % off")
    func clockTolerance() throws {
        let bytes = Models.randomBytes(100, seed: 8)
        for error in [-0.02, 0.02] {
            let signal = Models.arduinoBursts(bytes, piece: 10, clockError: error)
            let decoded = Models.arduinoReceive(signal)
            #expect(decoded == bytes, "clock \(error): \(Models.mismatch(bytes, decoded))")
        }
    }
}
