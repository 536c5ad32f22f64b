import ModemFraming
import Testing

/// Feeds `bytes` in chunks of `chunk` and collects the messages.
func parseAll<P: MessageParser>(_ parser: P, _ bytes: [UInt8], chunk: Int = 1) -> (messages: [P.Message], parser: P) {
    var p = parser
    var out: [P.Message] = []
    var i = 0
    while i < bytes.count {
        let end = min(bytes.count, i + chunk)
        out += p.parse(bytes[i..<end])
        i = end
    }
    return (out, p)
}

@Suite struct ChecksumTests {
    @Test func crc16CCITTFalseCheckValue() {
        #expect(CRC16.checksum(Array("123456789".utf8)) == 0x29B1)
    }
    @Test func crc32CheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.update(CRC32.checksum(Array("1234".utf8)), Array("56789".utf8)) == 0xCBF4_3926)
    }
}

@Suite struct TextLineTests {
    @Test func allTerminatorsAndAnyChunking() {
        let bytes = Array("Hello world\r\nArduino reset\nGoodbye world\rlast\r".utf8)
        for chunk in [1, 2, 3, 7, 100] {
            let (m, p) = parseAll(TextLineParser(), bytes, chunk: chunk)
            #expect(m.map(\.text) == ["Hello world", "Arduino reset", "Goodbye world", "last"])
            #expect(p.discardedBytes == 0)
        }
    }
    @Test func crlfSplitAcrossChunksIsOneTerminator() {
        var p = TextLineParser()
        #expect(p.parse(Array("a\r".utf8)).map(\.text) == ["a"])
        #expect(p.parse(Array("\nb\r\n".utf8)).map(\.text) == ["b"])
    }
    @Test func controlBytesAndOverlongLinesAreDiscarded() {
        let long = [UInt8](repeating: 65, count: 300)
        let (m, p) = parseAll(
            TextLineParser(), [0x01, 0x02] + Array("ok".utf8) + [13, 10] + long + [10] + Array("next\n".utf8))
        #expect(m.map(\.text) == ["ok", "next"])
        #expect(p.discardedBytes == 2 + 301)
    }
}

@Suite struct PinTests {
    @Test func commandsAndResync() {
        let bytes: [UInt8] = [13, 1, 0xFF, 7, 0, 14, 2, 2, 1]
        let (m, p) = parseAll(PinCommandParser(), bytes)
        #expect(
            m == [PinCommand(pin: 13, high: true), PinCommand(pin: 7, high: false), PinCommand(pin: 2, high: true)])
        #expect(p.discardedBytes == 3)  // 0xFF, 14, first 2 (followed by 2, re-read as a pin)
        #expect(PinCommand.encode(pin: 13, high: true) == [13, 1])
        #expect(PinCommand.encode(pin: 14, high: true) == nil)
        #expect(PinCommand.encode(pin: -1, high: true) == nil)
    }
    @Test func replies() {
        let bytes =
            PinReply.encode(pin: 13, state: 1) + Array("Set: x to: 1\r\nhello\r\n".utf8)
            + PinReply.encode(pin: 2, state: 0)
        let (m, p) = parseAll(PinReplyParser(), bytes, chunk: 3)
        #expect(m.map { [$0.pin, $0.state] } == [[13, 1], [2, 0]])
        #expect(p.discardedBytes == 21)
    }
}

@Suite struct RangeTests {
    @Test func maxSonarLines() {
        let bytes =
            RangeReading.encodeLine(centimetres: 157) + Array("junk\r\n".utf8) + RangeReading.encodeLine(centimetres: 6)
        let (m, _) = parseAll(RangeLineParser(), bytes)
        #expect(m.map(\.value) == [157, 6])
        #expect(m.allSatisfy { $0.unit == .centimetres })
    }
    @Test func ez1SkipsCopyrightLine() {
        let banner = Array("LV-MaxSonar-EZ1\rCopyright 2005-2009 MaxBotix, Inc.\rPN:...\r".utf8)
        let bytes =
            banner + RangeReading.encodeEZ1(inches: 42) + [0x52, 0x39] + RangeReading.encodeEZ1(inches: 255)
            + Array("R999\r".utf8)
        for chunk in [1, 4, 1000] {
            let (m, p) = parseAll(EZ1Parser(), bytes, chunk: chunk)
            #expect(m.map(\.value) == [42, 255])
            #expect(m.allSatisfy { $0.unit == .inches })
            #expect(p.discardedBytes == banner.count + 2 + 5)
        }
        #expect(RangeReading.encodeEZ1(inches: 7) == Array("R007\r".utf8))
    }
}

@Suite struct MotorTests {
    @Test func everyValueRoundTrips() {
        for s in stride(from: -255, through: 255, by: 1) {
            for a in [-255, -128, -127, -1, 0, 1, 58, 127, 128, 255] {
                let m = MotorCommand(steering: s, acceleration: a, headlights: s & 1 == 0, brakeLights: a < 0)
                #expect(MotorCommand.decode(m.raw) == m)
                #expect(m.raw[1] < 128 && m.raw[2] < 128 && m.raw[3] == 58)
            }
        }
    }
    @Test func controlBitsMatchTheSpec() {
        #expect(MotorCommand(steering: -200, acceleration: 90, headlights: true).raw == [0b0001_0101, 72, 90, 58])
        #expect(MotorCommand(steering: 0, acceleration: -255, brakeLights: true).raw == [0b0010_1010, 0, 127, 58])
    }
    @Test func resyncAfterGarbage() {
        let a = MotorCommand(steering: -200, acceleration: 90, headlights: true)
        let b = MotorCommand(steering: 58, acceleration: -58)
        let bytes: [UInt8] = [0xFF, 0x3A, 0x3A, 0x80] + a.raw + [0xC5] + b.raw
        let (m, p) = parseAll(MotorCommandParser(), bytes)
        #expect(m == [a, b])
        #expect(p.discardedBytes == 5)
    }
}

@Suite struct AccessoryTests {
    @Test func framesCountersAndLoss() {
        var enc = AccessoryFrameEncoder(firstCounter: 250)
        var frames: [[UInt8]] = []
        for i in 0..<10 {
            frames.append(enc.encode(command: AccessoryFrame.batteryCommand, payload: [UInt8(1 + i % 3)]))
        }
        // Drop frames 3 and 4, damage frame 7 (lost too), add garbage.
        var bytes: [UInt8] = [0x0F, 0x0F, 0xF0, 0x01]
        for (i, f) in frames.enumerated() where i != 3 && i != 4 {
            var f = f
            if i == 7 { f[5] ^= 0x40 }
            bytes += f
        }
        for chunk in [1, 5, 64] {
            let (m, p) = parseAll(AccessoryFrameParser(), bytes, chunk: chunk)
            #expect(m.map(\.counter) == [250, 251, 252, 255, 0, 2, 3])
            #expect(m.map(\.lostBefore) == [0, 0, 0, 2, 0, 1, 0])
            #expect(p.lostFrames == 3)
            #expect(p.discardedBytes == 4 + frames[7].count)
            #expect(m[0].batteryLevel == .low)
        }
    }
    @Test func frameLayout() {
        let f = AccessoryFrame(counter: 1, command: 0x10, payload: [0x02]).raw
        #expect(Array(f.prefix(6)) == [0x0F, 0xF0, 0x01, 0x10, 0x01, 0x02])
        let crc = CRC16.checksum(f.prefix(6))
        #expect(f[6] == UInt8(crc >> 8) && f[7] == UInt8(crc & 0xFF))
    }
}

@Suite struct XBeeTests {
    @Test func atSessionWithGuardTimes() {
        var p = XBeeCommandParser(guardTime: 1)
        var t = 0.0
        var got: [XBeeCommand] = []
        for step in XBeeAT.session(["BD 3", "ID 1111", "MY 2345", "DL 7890", "WR"]) {
            t += step.delay
            if let m = p.advance(to: t) { got.append(m) }
            for b in step.bytes {
                if let m = p.push(b, at: t) { got.append(m) }
                t += 0.01
            }
        }
        if let m = p.advance(to: t + 2) { got.append(m) }
        #expect(
            got.map(\.description) == [
                "+++ (command mode)", "ATBD 3 (9600 baud)", "ATID 1111", "ATMY 2345", "ATDL 7890", "ATWR",
            ])
    }
    @Test func plusWithoutGuardTimeIsData() {
        var p = XBeeCommandParser(guardTime: 1)
        var got: [XBeeCommand] = []
        for (i, b) in Array("x+++".utf8).enumerated() {
            if let m = p.push(b, at: 5 + Double(i) * 0.01) { got.append(m) }
        }
        if let m = p.advance(to: 10) { got.append(m) }
        #expect(got.isEmpty)
    }
    @Test func baudTable() {
        #expect(XBeeAT.baudRates.count == 8)
        #expect(XBeeAT.baudRate(forCode: 3) == 9600)
        #expect(XBeeAT.baudCode(for: 115200) == 7)
        #expect(XBeeAT.baudRate(forCode: 8) == nil)
    }
    @Test func replies() {
        let (m, _) = parseAll(XBeeReplyParser(), XBeeReply.ok + Array("ERROR\r3\r".utf8))
        #expect(m.map(\.kind) == [.ok, .error, .value("3")])
    }
    @Test func apiFramesBothModes() {
        // Example from the XBee manual: AT command "NJ", frame id 0x52... plus bytes needing escapes.
        let f = XBeeAPIFrame(apiIdentifier: 0x08, data: [0x52, 0x4E, 0x4A])
        #expect(f.raw == [0x7E, 0x00, 0x04, 0x08, 0x52, 0x4E, 0x4A, 0x0D])
        let g = XBeeAPIFrame(apiIdentifier: 0x10, data: [0x7E, 0x7D, 0x11, 0x13, 0x00], escaped: true)
        #expect(
            !g.raw.dropFirst().contains(0x7E) && !g.raw.dropFirst().contains(0x11) && !g.raw.dropFirst().contains(0x13))
        for escaped in [false, true] {
            let a = XBeeAPIFrame(apiIdentifier: 0x10, data: [0x7E, 0x7D, 0x11, 0x13, 1, 2], escaped: escaped)
            let b = XBeeAPIFrame(apiIdentifier: 0x08, data: [0x44, 0x4C], escaped: escaped)
            var bad = a.raw
            bad[bad.count - 1] ^= 1
            let bytes: [UInt8] = [1, 2, 0x7E, 0] + bad + a.raw + [9] + b.raw
            for chunk in [1, 3, 100] {
                let (m, p) = parseAll(XBeeAPIFrameParser(escaped: escaped), bytes, chunk: chunk)
                #expect(m == [a, b])
                #expect(p.discardedBytes > 0)
            }
        }
    }
}

@Suite struct StuffingTests {
    @Test func slipRoundTripAndBadEscape() {
        let a: [UInt8] = [1, 0xC0, 0xDB, 2, 0xDC, 0xDD]
        let bytes = SLIPPacket.encode(a) + [5, 0xDB, 7, 0xC0] + SLIPPacket.encode([9])
        let (m, p) = parseAll(SLIPParser(), bytes)
        #expect(m.map(\.payload) == [a, [9]])
        #expect(p.discardedBytes == 4)
    }
    @Test func cobsKnownVectors() {
        #expect(COBSPacket.encode([0x00]) == [0x01, 0x01])
        #expect(COBSPacket.encode([0x11, 0x22, 0x00, 0x33]) == [0x03, 0x11, 0x22, 0x02, 0x33])
        let long = (1...254).map { UInt8($0) }
        #expect(COBSPacket.encode(long) == [0xFF] + long)
        #expect(COBSPacket.decode(COBSPacket.encode(long)) == long)
        for n in [0, 1, 253, 254, 255, 600] {
            let data = (0..<n).map { UInt8(truncatingIfNeeded: $0 * 7 % 5 == 0 ? 0 : $0) }
            #expect(COBSPacket.decode(COBSPacket.encode(data)) == data)
        }
        let (m, p) = parseAll(COBSParser(), [5, 1, 0] + COBSPacket(payload: [0, 1, 0]).raw)
        #expect(m.map(\.payload) == [[0, 1, 0]])
        #expect(p.discardedBytes == 3)
    }
}

@Suite struct HiJackTests {
    @Test func voltsAndRates() {
        #expect(HiJackSample(byte: 0).volts == 0)
        #expect(HiJackSample(byte: 255).volts == 2.75)
        #expect(HiJackSample.byte(forVolts: 1.375) == 128 || HiJackSample.byte(forVolts: 1.375) == 127)
        #expect(HiJackSample.byte(forVolts: .nan) == 0)
        #expect(HiJackRate(byte: 0).periodTicks == 1280)
        #expect(HiJackRate(byte: 255).periodTicks == 5)
        #expect(abs(HiJackRate(byte: 0).hertz - 0.8) < 1e-9)
        #expect(HiJackRate(byte: HiJackRate.byte(forHertz: 100)).periodTicks == 10)
        let (m, _) = parseAll(HiJackSampleParser(), [0, 128, 255])
        #expect(m.map(\.byte) == [0, 128, 255])
    }
    @Test func toggleTracksState() {
        let (m, _) = parseAll(StreamToggleParser(), [1, 2, 3])
        #expect(m.map(\.streaming) == [true, false, true])
    }
}

@Suite struct CatalogTests {
    @Test func everyProtocolHasAParser() {
        for proto in ByteProtocol.allCases {
            var p = proto.makeParser()
            for b in 0...255 { _ = p.pushAny(UInt8(b), at: 0) }
            #expect(p.bufferedBytes < 2048)
        }
    }
    @Test func hex() {
        #expect(parseHex("0a ff,0x10") == [0x0A, 0xFF, 0x10])
        #expect(parseHex("abc") == nil)
        #expect(parseHex("zz") == nil)
        #expect(hexString([0, 255]) == "00ff")
    }
}

@Suite struct FalseStartTests {
    /// A false sync announcing a long frame must not hold back the real frame behind it.
    @Test func accessoryFrameBehindFalseSyncIsFoundAtOnce() {
        let frame = AccessoryFrame(counter: 3, command: 0x10, payload: [2]).raw
        var p = AccessoryFrameParser()
        let got = p.parse([0x0F, 0xF0, 0x01, 0x02, 60] + frame)
        #expect(got.map(\.counter) == [3])
        #expect(p.discardedBytes == 5)
    }

    @Test func xbeeFrameBehindFalseStartIsFoundAtOnce() {
        let frame = XBeeAPIFrame(apiIdentifier: 0x08, data: [0x44, 0x4C]).raw
        var p = XBeeAPIFrameParser()
        let got = p.parse([0x7E, 0x00, 0x7E] + frame)
        #expect(got.count == 1)
    }
}
