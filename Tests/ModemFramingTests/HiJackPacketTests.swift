import ModemFraming
import Testing

/// The packet layers of hijack-infinity and lab11, against what their published senders
/// actually put on the wire (docs/hijack.md, "What they actually send").
@Suite struct HiJackPacketTests {
    static func parseInfinity(_ bytes: [UInt8]) -> [HiJackInfinityFrame] {
        var parser = HiJackInfinityFrameParser()
        return parser.parse(bytes)
    }

    @Test func infinityAcceptsEverySendersEscapesAndChecksums() {
        let payload: [UInt8] = [0x01, 0xDD, 0xCC, 0x05]
        // The firmware: 0xCC escapes, counted in the length and in the checksum.
        #expect(Self.parseInfinity([0xDD, 0x07, 0x01, 0xCC, 0xDD, 0xCC, 0xCC, 0x05, 0x47]).map(\.payload) == [payload])
        // The Android library: 0xDD escapes 0xCC only, counted in the checksum.
        #expect(Self.parseInfinity([0xDD, 0x06, 0x01, 0xDD, 0xDD, 0xCC, 0x05, 0x8C]).map(\.payload) == [payload])
        // What the receivers want (and softmodem sends): escapes out of the checksum.
        let ours = HiJackInfinityFrame.encode(payload: payload)!
        #expect(ours == [0xDD, 0x07, 0x01, 0xCC, 0xDD, 0xCC, 0xCC, 0x05, 0xAF])
        #expect(Self.parseInfinity(ours).map(\.payload) == [payload])
    }

    @Test func infinityChecksumThatNeedsEscapingAndDamage() {
        // A payload summing to 0xDD: the checksum is escaped too and still read back.
        let payload: [UInt8] = [0x50, 0x8D]
        let frame = HiJackInfinityFrame.encode(payload: payload)!
        #expect(frame == [0xDD, 0x04, 0x50, 0x8D, 0xCC, 0xDD])
        #expect(Self.parseInfinity(frame).map(\.payload) == [payload])
        // A flipped bit: dropped, and the next frame still found.
        var damaged = frame
        damaged[2] ^= 4
        let next = HiJackInfinityFrame.encode(payload: [7])!
        #expect(Self.parseInfinity(damaged + next).map(\.payload) == [[7]])
        #expect(HiJackInfinityFrame.encode(payload: Array(repeating: 0xDD, count: 9)) == nil)
    }

    @Test func infinitySensorPacketFields() {
        let frames = Self.parseInfinity(
            HiJackInfinityFrame.encode(payload: [0xFD, 0x34, 0x12, 0, 0, 0x10, 0, 0x20, 0])!)
        let fields = Dictionary(uniqueKeysWithValues: frames[0].fields.map { ($0.name, $0.value) })
        #expect(fields["din1"] == .int(1))
        #expect(fields["din2"] == .int(0))
        #expect(fields["vcc"] == .int(0x1234))
        #expect(fields["ain1"] == .int(0x10))
    }

    @Test func lab11PacketsEndWhenTheirBytesPause() {
        var parser = HiJackLab11PacketParser()
        let a = HiJackLab11Packet(header: 0x43, payload: [0xD0, 0, 0, 0, 0]).raw
        let b = HiJackLab11Packet(header: 0x06, payload: [0x21, 0x02, 0x34]).raw
        var out: [HiJackLab11Packet] = []
        // 8 bits apart at 1260 baud inside a packet; a preamble and postamble between them.
        var t = 0.0
        for byte in a {
            parser.push(byte, at: t, into: &out)
            t += 8 / 1260
        }
        t += 20 / 1260
        for byte in b {
            parser.push(byte, at: t, into: &out)
            t += 8 / 1260
        }
        #expect(out.map(\.raw) == [a])
        #expect(parser.advance(to: t) == nil, "not yet: the pause is under 1.5 byte times")
        #expect(parser.advance(to: t + 0.05)?.raw == b)
        let io = HiJackLab11Packet(header: 0x06, payload: [0x21, 0x02, 0x34]).io
        #expect(io == HiJackIOMessage(command: .analogRead, pin: 1, value: 0x0234))
    }

    @Test func lab11IOCommandsEncode() throws {
        var f = MessageFields()
        (f.io, f.pin, f.high) = (.digitalWrite, 3, true)
        #expect(try ByteProtocol.hijackLab11.encode(f) == [0x06, 0x53, 0x01, 0x5A])
        f = MessageFields()
        (f.io, f.pin) = (.analogRead, 1)
        #expect(try ByteProtocol.hijackLab11.encode(f) == [0x06, 0x21, 0x27])
        (f.io, f.pin, f.value) = (.analogWrite, 2, 0x1234)
        #expect(try ByteProtocol.hijackLab11.encode(f) == [0x06, 0x32, 0x12, 0x34, 0x7E])
        (f.io, f.pin) = (.digitalRead, 9)
        #expect(throws: MessageEncodingError.outOfRange(.pin, lowest: 0, highest: 7)) {
            try ByteProtocol.hijackLab11.encode(f)
        }
    }
}
