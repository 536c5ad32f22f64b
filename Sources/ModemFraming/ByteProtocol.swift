/// The byte protocols by name, for command lines and configuration files.
public enum ByteProtocol: String, CaseIterable, Sendable {
    case line, pin
    case pinReply = "pin-reply"
    case range, ez1, toggle, motor, accessory
    case xbeeAT = "xbee-at"
    case xbeeReply = "xbee-reply"
    case xbeeAPI = "xbee-api"
    case xbeeAPI2 = "xbee-api2"
    case slip, cobs, hijack
    case hijackRate = "hijack-rate"
    case hijackInfinity = "hijack-infinity"
    case hijackLab11 = "hijack-lab11"
    case link

    /// What the protocol carries, one line.
    public var summary: String {
        switch self {
        case .line: "text lines ending CR LF, LF or CR (Serial.println)"
        case .pin: "pin control: 2 bytes, pin 2-13 and state 0/1 (host -> board)"
        case .pinReply: "pin control replies: \"Set: N to: M\" lines (board -> host)"
        case .range: "MaxSonar via Arduino: centimetres as decimal lines"
        case .ez1: "LV-MaxSonar-EZ1: R + 3 digits (inches) + CR"
        case .toggle: "stream toggle: every byte flips streaming/quiet"
        case .motor: "Carduino motor packets: control, steering, acceleration, ':'"
        case .accessory: "accessory frames: 0F F0, counter, command, length, payload, CRC-16/CCITT-FALSE"
        case .xbeeAT: "XBee AT command mode, host side: +++ with guard times, AT commands"
        case .xbeeReply: "XBee AT command mode, radio side: OK / ERROR / values"
        case .xbeeAPI: "XBee API frames (API mode 1)"
        case .xbeeAPI2: "XBee API frames with escaping (API mode 2)"
        case .slip: "SLIP packets (RFC 1055)"
        case .cobs: "COBS packets delimited by 0x00"
        case .hijack: "HiJack sensor stream: one byte per sample, 0-2.75 V"
        case .hijackRate: "HiJack rate byte: period 2560/(b+1)/2 ticks of 1/1024 s"
        case .hijackInfinity: "hijack-infinity packets: DD, length, escaped payload, 8-bit sum"
        case .hijackLab11: "hijack-lab11 packets: header, payload, 8-bit sum; IO commands"
        case .link: "reliable-link packets (COBS, sequence number, CRC-32)"
        }
    }

    /// A fresh parser for this protocol.
    public func makeParser() -> any MessageParser {
        switch self {
        case .line: TextLineParser()
        case .pin: PinCommandParser()
        case .pinReply: PinReplyParser()
        case .range: RangeLineParser()
        case .ez1: EZ1Parser()
        case .toggle: StreamToggleParser()
        case .motor: MotorCommandParser()
        case .accessory: AccessoryFrameParser()
        case .xbeeAT: XBeeCommandParser()
        case .xbeeReply: XBeeReplyParser()
        case .xbeeAPI: XBeeAPIFrameParser(escaped: false)
        case .xbeeAPI2: XBeeAPIFrameParser(escaped: true)
        case .slip: SLIPParser()
        case .cobs: COBSParser()
        case .hijack: HiJackSampleParser()
        case .hijackRate: HiJackRateParser()
        case .hijackInfinity: HiJackInfinityFrameParser()
        case .hijackLab11: HiJackLab11PacketParser()
        case .link: LinkPacketMessageParser()
        }
    }
}

extension MessageParser {
    /// ``push(_:at:into:)`` with the message type erased, for callers holding `any MessageParser`.
    public mutating func pushAny(_ byte: UInt8, at time: Double) -> [any FramedMessage] {
        var out: [Message] = []
        push(byte, at: time, into: &out)
        return out
    }

    /// ``advance(to:)`` with the message type erased.
    public mutating func advanceAny(to time: Double) -> (any FramedMessage)? { advance(to: time) }
}
