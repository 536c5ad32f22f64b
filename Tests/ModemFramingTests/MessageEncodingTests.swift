import ModemFraming
import Testing

/// Building messages from fields (``ByteProtocol/encode(_:)``): every protocol's message
/// parses back with the same protocol's parser, and bad fields are typed errors.
@Suite struct MessageEncodingTests {
    /// Fields that make one valid message of each protocol.
    static func fields(for proto: ByteProtocol) -> MessageFields {
        var f = MessageFields()
        switch proto {
        case .line, .xbeeReply: f.text = "hello"
        case .pin, .pinReply: (f.pin, f.high) = (7, true)
        case .range: f.range = 1234
        case .ez1: f.range = 42
        case .toggle: f.payload = [0x21]
        case .motor: (f.steering, f.acceleration, f.headlights) = (-120, 200, true)
        case .accessory: (f.command, f.counter, f.payload) = (0x10, 3, [1, 2, 3])
        case .xbeeAT: f.atCommands = ["BD 3", "WR"]
        case .xbeeAPI, .xbeeAPI2: (f.apiIdentifier, f.payload) = (0x08, [0x41, 0x7E, 0x7D])
        case .slip, .cobs: f.payload = [0, 0xC0, 0xDB, 5]
        case .hijack: f.volts = 1.5
        case .hijackRate: f.sampleHz = 50
        case .hijackInfinity: f.payload = [0x01, 0xDD, 0xCC, 0x05]
        case .hijackLab11: (f.io, f.pin, f.value) = (.analogWrite, 2, 0x1234)
        case .link: (f.counter, f.payload) = (9, Array(0..<200))
        }
        return f
    }

    @Test(arguments: ByteProtocol.allCases)
    func everyProtocolsMessageParsesBack(proto: ByteProtocol) throws {
        let bytes = try proto.encode(Self.fields(for: proto))
        #expect(!bytes.isEmpty)
        var parser = proto.makeParser()
        var messages: [any FramedMessage] = []
        // XBee AT commands need their guard time after the last byte.
        for (i, b) in bytes.enumerated() { messages += parser.pushAny(b, at: Double(i) * 0.001) }
        if let late = parser.advanceAny(to: 10) { messages.append(late) }
        #expect(!messages.isEmpty, "\(proto): \(bytes)")
        let last = messages.last?.raw ?? []
        #expect(!last.isEmpty && bytes.suffix(last.count).elementsEqual(last), "the message ends the bytes: \(proto)")
    }

    @Test func missingAndOutOfRangeFieldsAreTypedErrors() {
        var pin = MessageFields()
        pin.pin = 40
        #expect(throws: MessageEncodingError.missing(.pin, .state)) { try ByteProtocol.pin.encode(pin) }
        pin.high = false
        #expect(throws: MessageEncodingError.outOfRange(.pin, lowest: 2, highest: 13)) {
            try ByteProtocol.pin.encode(pin)
        }
        var motor = MessageFields()
        motor.acceleration = -256
        #expect(throws: MessageEncodingError.outOfRange(.acceleration, lowest: -255, highest: 255)) {
            try ByteProtocol.motor.encode(motor)
        }
        var link = MessageFields()
        link.payload = [UInt8](repeating: 1, count: LinkPacket.maximumPayload + 1)
        #expect(throws: MessageEncodingError.tooLong(.payload, maximum: 243)) { try ByteProtocol.link.encode(link) }
        #expect(throws: MessageEncodingError.missing(.xbeeAT, .atCommands)) {
            try ByteProtocol.xbeeAT.encode(MessageFields())
        }
        var rate = MessageFields()
        rate.sampleHz = 0
        #expect(throws: MessageEncodingError.outOfRange(.sampleHz, lowest: 0, highest: nil)) {
            try ByteProtocol.hijackRate.encode(rate)
        }
    }

    @Test func defaultsAreTheProtocolsOwn() throws {
        #expect(try ByteProtocol.toggle.encode(MessageFields()) == [StreamToggle.defaultByte])
        #expect(try ByteProtocol.xbeeReply.encode(MessageFields()) == Array("OK\r".utf8))
        var text = MessageFields()
        text.text = "AB"
        #expect(try ByteProtocol.slip.encode(text) == SLIPPacket(payload: [0x41, 0x42]).raw, "text is the payload")
    }
}
