/// The fields one message of a byte protocol is built from: what a sender fills in, as
/// values (the command line parses its options into them). Each protocol reads only its
/// own fields (``ByteProtocol/encode(_:)``).
public struct MessageFields: Sendable, Equatable {
    /// line: the text; xbee-reply: the reply (default "OK"); the payload of slip, cobs,
    /// accessory, xbee-api and link when ``payload`` is nil.
    public var text: String?
    /// The raw payload (accessory, xbee-api, slip, cobs, link; toggle: its first byte).
    public var payload: [UInt8]?
    /// pin, pin-reply: the pin (2-13) and its state.
    public var pin: Int?
    /// pin, pin-reply and hijack-lab11 digital-write: the state, true for HIGH (1).
    public var high: Bool?
    /// range: centimetres (0-99999); ez1: inches (0-255).
    public var range: Int?
    /// motor: steering and acceleration, -255...255 (0 when nil), and the lights.
    public var steering: Int?
    /// motor: acceleration, -255...255, negative for reverse (0 when nil).
    public var acceleration: Int?
    /// motor: headlights on.
    public var headlights = false
    /// motor: brake lights on.
    public var brakeLights = false
    /// accessory: the command byte, and the packet counter (0-255; link: the sequence number).
    public var command: UInt8?
    /// accessory: the packet counter (0-255, default 0); link: the sequence number (cut to
    /// 16 bits, default 0).
    public var counter: Int?
    /// xbee-at: commands without the AT prefix ("BD 3").
    public var atCommands: [String] = []
    /// xbee-api, xbee-api2: the API identifier.
    public var apiIdentifier: UInt8?
    /// hijack: a sample's voltage (0-2.75); hijack-rate: the sampling rate in Hz (above 0).
    public var volts: Double?
    /// hijack-rate: the sampling rate in Hz (above 0); sent as the rate byte nearest to it.
    public var sampleHz: Double?
    /// hijack-lab11: an IO command (with ``pin``, and ``high`` or ``value`` for writes);
    /// without one, a packet of ``packetType`` (default 1, global) carrying ``payload``.
    public var io: HiJackIOCommand?
    /// hijack-lab11 analog-write: the value to write (0-65535).
    public var value: Int?
    /// hijack-lab11 without ``io``: the packet type, 0-15 (default 1, global).
    public var packetType: Int?
    /// hijack-lab11: sets the header's ack-requested bit.
    public var ackRequested = false

    /// No fields set: every optional nil, the flags false, no AT commands.
    public init() {}
}

/// Which field of ``MessageFields`` an encoding error is about.
public enum MessageFieldName: String, Sendable, Equatable {
    case text, payload, pin, state, range, steering, acceleration, command, counter, atCommands, apiIdentifier,
        volts, sampleHz, io, value, packetType
}

/// Why a message could not be built from its fields.
public enum MessageEncodingError: Error, Equatable {
    /// The protocol needs this field.
    case missing(ByteProtocol, MessageFieldName)
    /// The field's value is outside `lowest...highest` (`highest` nil: no upper bound, and
    /// `lowest` itself is excluded).
    case outOfRange(MessageFieldName, lowest: Double, highest: Double?)
    /// The payload is longer than the protocol carries.
    case tooLong(MessageFieldName, maximum: Int)
}

extension ByteProtocol {
    /// The bytes of one message of this protocol built from `fields`.
    ///
    /// Only the protocol's own fields are read; a missing or out-of-range one is an error,
    /// never a default, except where the protocol has one (motor's 0 steering, toggle's
    /// byte, xbee-reply's "OK", accessory's counter 0).
    public func encode(_ fields: MessageFields) throws(MessageEncodingError) -> [UInt8] {
        switch self {
        case .line: return TextLine.encode(try need(fields.text, .text))
        case .pin:
            let p = try need(fields.pin, .pin)
            guard let bytes = PinCommand.encode(pin: p, high: try need(fields.high, .state)) else {
                throw .outOfRange(.pin, lowest: 2, highest: 13)
            }
            return bytes
        case .pinReply:
            return PinReply.encode(pin: try need(fields.pin, .pin), state: try need(fields.high, .state) ? 1 : 0)
        case .range:
            let r = try need(fields.range, .range)
            guard r >= 0 && r <= 99_999 else { throw .outOfRange(.range, lowest: 0, highest: 99_999) }
            return RangeReading.encodeLine(centimetres: r)
        case .ez1:
            let r = try need(fields.range, .range)
            guard (0...255).contains(r) else { throw .outOfRange(.range, lowest: 0, highest: 255) }
            return RangeReading.encodeEZ1(inches: r)
        case .toggle: return fields.payload.map { Array($0.prefix(1)) } ?? [StreamToggle.defaultByte]
        case .motor:
            let s = fields.steering ?? 0
            let a = fields.acceleration ?? 0
            guard (-255...255).contains(s) else { throw .outOfRange(.steering, lowest: -255, highest: 255) }
            guard (-255...255).contains(a) else { throw .outOfRange(.acceleration, lowest: -255, highest: 255) }
            return MotorCommand(
                steering: s, acceleration: a, headlights: fields.headlights, brakeLights: fields.brakeLights
            ).raw
        case .hijack, .hijackRate: return try encodeSample(fields)
        case .hijackInfinity:
            let body = Self.body(fields)
            guard let frame = HiJackInfinityFrame.encode(payload: body) else {
                throw .tooLong(.payload, maximum: HiJackInfinityFrame.maximumLength - 2)
            }
            return frame
        case .hijackLab11: return try encodeLab11(fields)
        case .accessory: return try encodeAccessory(fields)
        case .xbeeAT:
            guard !fields.atCommands.isEmpty else { throw .missing(self, .atCommands) }
            return fields.atCommands.flatMap { Array("AT\($0)\r".utf8) }
        case .xbeeReply: return Array("\(fields.text ?? "OK")\r".utf8)
        case .xbeeAPI, .xbeeAPI2:
            let id = try need(fields.apiIdentifier, .apiIdentifier)
            let body = Self.body(fields)
            guard body.count < XBeeAPIFrame.maximumData else {
                throw .tooLong(.payload, maximum: XBeeAPIFrame.maximumData - 1)
            }
            return XBeeAPIFrame(apiIdentifier: id, data: body, escaped: self == .xbeeAPI2).raw
        case .slip: return SLIPPacket(payload: Self.body(fields)).raw
        case .cobs: return COBSPacket(payload: Self.body(fields)).raw
        case .link:
            let body = Self.body(fields)
            guard body.count <= LinkPacket.maximumPayload else {
                throw .tooLong(.payload, maximum: LinkPacket.maximumPayload)
            }
            let seq = UInt16(truncatingIfNeeded: fields.counter ?? 0)
            return LinkPacket(kind: .dataEnd, seq: seq, payload: body).wireBytes
        }
    }

    /// A packet's payload: the raw payload, else the text's UTF-8, else nothing.
    private static func body(_ fields: MessageFields) -> [UInt8] {
        fields.payload ?? fields.text.map { Array($0.utf8) } ?? []
    }

    /// An accessory frame: counter, command and payload.
    private func encodeAccessory(_ fields: MessageFields) throws(MessageEncodingError) -> [UInt8] {
        let c = try need(fields.command, .command)
        let n = fields.counter ?? 0
        guard (0...255).contains(n) else { throw .outOfRange(.counter, lowest: 0, highest: 255) }
        let body = Self.body(fields)
        guard body.count <= AccessoryFrame.maximumPayload else {
            throw .tooLong(.payload, maximum: AccessoryFrame.maximumPayload)
        }
        return AccessoryFrame(counter: UInt8(n), command: c, payload: body).raw
    }

    /// A lab11 packet: an IO command, or a packet of a given type with a raw payload.
    private func encodeLab11(_ fields: MessageFields) throws(MessageEncodingError) -> [UInt8] {
        guard let command = fields.io else {
            let type = fields.packetType ?? HiJackLab11Packet.Kind.global.rawValue
            guard (0...15).contains(type) else { throw .outOfRange(.packetType, lowest: 0, highest: 15) }
            let body = Self.body(fields)
            guard body.count <= HiJackLab11PacketParser.maximumBytes - 2 else {
                throw .tooLong(.payload, maximum: HiJackLab11PacketParser.maximumBytes - 2)
            }
            let header = HiJackLab11Packet.header(type: type, ackRequested: fields.ackRequested)
            return HiJackLab11Packet(header: header, payload: body).raw
        }
        let pin = try need(fields.pin, .pin)
        guard command.pins.contains(pin) else {
            throw .outOfRange(.pin, lowest: Double(command.pins.lowerBound), highest: Double(command.pins.upperBound))
        }
        var value: Int?
        if command == .digitalWrite { value = try need(fields.high, .state) ? 1 : 0 }
        if command == .analogWrite {
            let v = try need(fields.value, .value)
            guard (0...65_535).contains(v) else { throw .outOfRange(.value, lowest: 0, highest: 65_535) }
            value = v
        }
        let header = HiJackLab11Packet.header(
            type: HiJackLab11Packet.Kind.hijackIO.rawValue, ackRequested: fields.ackRequested)
        let payload = HiJackIOMessage(command: command, pin: pin, value: value).payload
        return HiJackLab11Packet(header: header, payload: payload).raw
    }

    /// The HiJack sensor's one-byte messages.
    private func encodeSample(_ fields: MessageFields) throws(MessageEncodingError) -> [UInt8] {
        if self == .hijackRate {
            let hz = try need(fields.sampleHz, .sampleHz)
            guard hz.isFinite, hz > 0 else { throw .outOfRange(.sampleHz, lowest: 0, highest: nil) }
            return [HiJackRate.byte(forHertz: hz)]
        }
        let v = try need(fields.volts, .volts)
        guard v.isFinite, (0...HiJackSample.fullScale).contains(v) else {
            throw .outOfRange(.volts, lowest: 0, highest: HiJackSample.fullScale)
        }
        return [HiJackSample.byte(forVolts: v)]
    }

    private func need<T>(_ value: T?, _ field: MessageFieldName) throws(MessageEncodingError) -> T {
        guard let value else { throw .missing(self, field) }
        return value
    }
}
