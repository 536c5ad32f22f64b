/// One lab11 HiJack packet: a header byte, the payload, and the 8-bit sum of both
/// (docs/hijack.md).
///
/// The header holds power-down (bit 7), ack-requested (bit 6), retries (bits 5-4) and the
/// type (bits 3-0). The layout is the firmware's; the Android library puts a sequence byte
/// after the header (read here as the payload's first byte) and, by a bug, never sends its
/// checksum, so its packets reach neither the firmware nor this parser.
public struct HiJackLab11Packet: FramedMessage, Equatable {
    /// The packet types of the lab11 libraries (8-15 are the application's).
    public enum Kind: Int, Sendable, CaseIterable {
        case invalid, global, ack, booted, resumed, powerDown, hijackIO

        /// The type's name in text and JSON output ("booted", "powerdown", "hijack-io", ...).
        public var name: String {
            switch self {
            case .invalid: "invalid"
            case .global: "global"
            case .ack: "ack"
            case .booted: "booted"
            case .resumed: "resumed"
            case .powerDown: "powerdown"
            case .hijackIO: "hijack-io"
            }
        }
    }

    /// The header byte: power-down (bit 7), ack-requested (bit 6), retries (bits 5-4) and type
    /// (bits 3-0); see ``header(type:powerDown:ackRequested:retries:)``.
    public var header: UInt8
    /// The bytes between the header and the checksum (possibly none).
    public var payload: [UInt8]

    /// A packet from its header byte and payload; the checksum is computed, not stored.
    public init(header: UInt8, payload: [UInt8]) {
        self.header = header
        self.payload = payload
    }

    /// A header from its fields (retries 0-3 and type 0-15 are masked to their bits).
    public static func header(type: Int, powerDown: Bool = false, ackRequested: Bool = false, retries: Int = 0)
        -> UInt8
    {
        (powerDown ? 0x80 : 0) | (ackRequested ? 0x40 : 0) | UInt8(retries & 3) << 4 | UInt8(type & 15)
    }

    /// The header's power-down flag (bit 7).
    public var powerDown: Bool { header & 0x80 != 0 }
    /// The header's ack-requested flag (bit 6).
    public var ackRequested: Bool { header & 0x40 != 0 }
    /// The header's retry count (bits 5-4), 0-3.
    public var retries: Int { Int(header >> 4 & 3) }
    /// The packet type (header bits 3-0), 0-15: a ``Kind`` for 0-6, the application's for 8-15.
    public var type: Int { Int(header & 15) }
    /// The 8-bit sum (mod 256) of the header and payload bytes, sent after the payload.
    public var checksum: UInt8 { payload.reduce(header, &+) }
    /// The packet on the wire: header, payload, checksum.
    public var raw: [UInt8] { [header] + payload + [checksum] }

    /// The IO command a hijack-io packet carries, when its payload is one.
    public var io: HiJackIOMessage? { type == Kind.hijackIO.rawValue ? HiJackIOMessage(payload) : nil }

    /// Type (number and name), the header flags, retries and payload, plus the IO command's
    /// fields for a hijack-io packet.
    public var fields: [MessageField] {
        var f = [
            MessageField("type", .int(type)),
            MessageField("type_name", .string(Kind(rawValue: type)?.name ?? "app-\(type)")),
            MessageField("power_down", .bool(powerDown)), MessageField("ack_requested", .bool(ackRequested)),
            MessageField("retries", .int(retries)), MessageField("payload", .bytes(payload)),
        ]
        if let io { f += io.fields }
        return f
    }

    /// The type's name ("app-N" for types without one), then the IO command, or else the
    /// payload in hex.
    public var description: String {
        let name = Kind(rawValue: type)?.name ?? "app-\(type)"
        if let io { return "\(name) \(io)" }
        return "\(name) \(hexString(payload))"
    }
}

/// The IO commands the lab11 Android library defines (HiJackIOCommand), in the high four
/// bits of a hijack-io payload's first byte; the pin is in the low four.
public enum HiJackIOCommand: Int, Sendable, CaseIterable {
    case setInput, setOutput, analogRead, analogWrite, digitalRead, digitalWrite, disableInterrupt
    case interruptRising, interruptFalling

    /// The name a user types: "digital-write", "analog-read", ...
    public var name: String {
        switch self {
        case .setInput: "set-input"
        case .setOutput: "set-output"
        case .analogRead: "analog-read"
        case .analogWrite: "analog-write"
        case .digitalRead: "digital-read"
        case .digitalWrite: "digital-write"
        case .disableInterrupt: "disable-interrupt"
        case .interruptRising: "interrupt-rising"
        case .interruptFalling: "interrupt-falling"
        }
    }

    /// The command whose ``name`` is `name` (e.g. "digital-write"); nil for any other text.
    public init?(name: String) {
        guard let c = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = c
    }

    /// Pins the library allows: digital 0-7, analog 0-3.
    public var pins: ClosedRange<Int> { self == .analogRead || self == .analogWrite ? 0...3 : 0...7 }
}

/// A hijack-io payload: command and pin, then a value: one byte for a digital write (or
/// a digital reply), two bytes big-endian for an analog write (or an analog reply).
public struct HiJackIOMessage: Sendable, Equatable, CustomStringConvertible {
    /// What the IO packet does; sent in the high four bits of the first payload byte.
    public var command: HiJackIOCommand
    /// The pin number, sent in the low four bits of the first payload byte (see
    /// ``HiJackIOCommand/pins`` for the range the library allows).
    public var pin: Int
    /// The value written or read (one byte digital, two bytes analog); nil when the payload
    /// carries none.
    public var value: Int?

    /// A message from its parts; nothing is range-checked, and ``payload`` keeps only the
    /// pin's low four bits.
    public init(command: HiJackIOCommand, pin: Int, value: Int? = nil) {
        self.command = command
        self.pin = pin
        self.value = value
    }

    /// Reads a payload; nil for an unknown command or a length no command has.
    public init?(_ payload: [UInt8]) {
        guard let first = payload.first, let c = HiJackIOCommand(rawValue: Int(first >> 4)) else { return nil }
        command = c
        pin = Int(first & 15)
        switch payload.count {
        case 1: value = nil
        case 2: value = Int(payload[1])
        case 3: value = Int(payload[1]) << 8 | Int(payload[2])
        default: return nil
        }
    }

    /// The encoded payload: command and pin in one byte, then the value, if any: two bytes
    /// big-endian for analog commands or values over 255, else one byte.
    public var payload: [UInt8] {
        var p = [UInt8(command.rawValue << 4 | pin & 15)]
        if let value {
            if command == .analogWrite || command == .analogRead || value > 255 {
                p += [UInt8(value >> 8 & 255), UInt8(value & 255)]
            } else {
                p.append(UInt8(value))
            }
        }
        return p
    }

    var fields: [MessageField] {
        var f = [MessageField("command", .string(command.name)), MessageField("pin", .int(pin))]
        if let value { f.append(MessageField("value", .int(value))) }
        return f
    }

    /// The command name and pin, plus the value when there is one
    /// (e.g. "digital-write pin 3 value 1").
    public var description: String { "\(command.name) pin \(pin)" + (value.map { " value \($0)" } ?? "") }
}

/// Parses lab11 packets from the bytes the lab11 decoder delivers. Packets carry no start
/// byte or length, so the parser finds their ends in time: a decoder delivers a packet's
/// bytes 8 bits apart, and the next packet's first byte at least a preamble, a start bit and
/// a postamble later. The first two bytes of a packet always belong together (a packet
/// has a header and a checksum); their spacing sets the limit, 1.5 times it, past which
/// a byte starts the next packet. A packet whose checksum fails is dropped and counted.
public struct HiJackLab11PacketParser: MessageParser {
    /// This parser completes ``HiJackLab11Packet`` messages.
    public typealias Message = HiJackLab11Packet
    /// Bytes of packets that failed their checksum or ran past ``maximumBytes``.
    public private(set) var discardedBytes = 0
    private var buffer: [UInt8] = []
    private var lastTime = 0.0
    private var spacing = 0.0

    /// The longest packet kept; longer runs are dropped (the decoder's own limit).
    public static let maximumBytes = 256

    /// A parser with no packet in progress.
    public init() {}
    /// Bytes held for the packet in progress, whose end is not yet known.
    public var bufferedBytes: Int { buffer.count }

    /// Pushes one byte that arrived at `time` seconds; a gap longer than 1.5 times the
    /// held packet's byte spacing first completes that packet.
    public mutating func push(_ byte: UInt8, at time: Double, into messages: inout [HiJackLab11Packet]) {
        if buffer.count >= 2 && time - lastTime > 1.5 * spacing {
            if let p = complete() { messages.append(p) }
        }
        if buffer.count == 1 { spacing = max(time - lastTime, 0) }
        if buffer.count >= Self.maximumBytes {
            discardedBytes += buffer.count
            buffer.removeAll()
        }
        buffer.append(byte)
        lastTime = time
    }

    /// Completes the held packet once `time` is more than 1.5 byte spacings after its
    /// last byte; nil while it may still grow, or when its checksum fails.
    public mutating func advance(to time: Double) -> HiJackLab11Packet? {
        guard buffer.count >= 2, time - lastTime > 1.5 * spacing else { return nil }
        return complete()
    }

    private mutating func complete() -> HiJackLab11Packet? {
        defer { buffer.removeAll(keepingCapacity: true) }
        let packet = HiJackLab11Packet(header: buffer[0], payload: Array(buffer[1..<(buffer.count - 1)]))
        guard packet.checksum == buffer[buffer.count - 1] else {
            discardedBytes += buffer.count
            return nil
        }
        return packet
    }
}
