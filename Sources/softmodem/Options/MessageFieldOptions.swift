import ArgumentParser
import ModemFraming

/// The fields that build one message of a byte protocol (`encode` and `tx` only: on
/// `decode` and `rx` they would mean nothing, and are not offered).
struct MessageFieldOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("pin, pin-reply: pin number (2-13); hijack-lab11: 0-7 (analog 0-3).", valueName: "n"))
    var pin: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("pin, pin-reply, hijack-lab11 digital-write: on/off, high/low or 1/0.", valueName: "state"))
    var state: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "hijack-lab11: IO command (\(HiJackIOCommand.allCases.map(\.name).joined(separator: ", "))).",
            valueName: "command"))
    var io: String?

    @Option(name: .long, help: ArgumentHelp("hijack-lab11 analog-write: value 0-65535.", valueName: "n"))
    var value: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("hijack-lab11 without --io: packet type 0-15 (default 1, global).", valueName: "n"))
    var packetType: Int?

    @Flag(name: .long, help: "hijack-lab11: set the header's ack-requested bit.")
    var ackRequested = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("motor: steering -255...255.", valueName: "n"))
    var steer: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("motor: acceleration -255...255.", valueName: "n"))
    var accel: Int?

    @Flag(name: .long, help: "motor: headlights on.")
    var headlights = false

    @Flag(name: .long, help: "motor: brake lights on.")
    var brake = false

    @Option(name: .long, help: ArgumentHelp("range: centimetres; ez1: inches (0-255).", valueName: "n"))
    var range: Int?

    @Option(name: .long, help: ArgumentHelp("accessory: command byte (0-255 or 0xNN).", valueName: "byte"))
    var command: String?

    @Option(name: .long, help: ArgumentHelp("accessory: packet counter; link: sequence number.", valueName: "n"))
    var counter: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Payload as hex (accessory, xbee-api, slip, cobs, link, toggle, hijack-infinity, hijack-lab11).",
            valueName: "hex"))
    var data: String?

    @Option(
        name: .long, help: ArgumentHelp("xbee-at: a command without AT, e.g. \"BD 3\" (repeatable).", valueName: "cmd"))
    var at: [String] = []

    @Option(name: .long, help: ArgumentHelp("xbee-api, xbee-api2: API identifier (0-255 or 0xNN).", valueName: "byte"))
    var apiId: String?

    @Option(name: .long, help: ArgumentHelp("hijack: sample voltage 0-2.75.", valueName: "v"))
    var volts: Double?

    @Option(name: .long, help: ArgumentHelp("hijack-rate: sampling rate in Hz (0.8-205).", valueName: "hz"))
    var sampleHz: Double?

    /// The bytes of the message of `proto` described by the options (`text` is the command's
    /// --text): the options parsed into ``MessageFields``, the message built by the protocol
    /// (``ByteProtocol/encode(_:)``), its errors worded with the options' names.
    func encode(_ proto: ByteProtocol, text: String?) throws(CLIError) -> [UInt8] {
        let fields = try fields(text: text)
        do {
            return try proto.encode(fields)
        } catch {
            throw .usage(Self.describe(error, proto))
        }
    }

    /// The options as message fields; strings that do not parse are usage errors.
    func fields(text: String?) throws(CLIError) -> MessageFields {
        var f = MessageFields()
        f.text = text
        if let data {
            guard let bytes = parseHex(data) else { throw .usage("--data must be hex bytes, not '\(data)'") }
            f.payload = bytes
        }
        f.pin = pin
        if let state {
            switch state.lowercased() {
            case "on", "high", "1": f.high = true
            case "off", "low", "0": f.high = false
            default: throw .usage("--state must be on/off, high/low or 1/0, not '\(state)'")
            }
        }
        f.range = range
        (f.steering, f.acceleration, f.headlights, f.brakeLights) = (steer, accel, headlights, brake)
        f.command = try command.map { v throws(CLIError) in try Self.byteValue(v, "--command") }
        f.counter = counter
        f.atCommands = at
        f.apiIdentifier = try apiId.map { v throws(CLIError) in try Self.byteValue(v, "--api-id") }
        (f.volts, f.sampleHz) = (volts, sampleHz)
        if let io {
            guard let command = HiJackIOCommand(name: io.lowercased()) else {
                let names = HiJackIOCommand.allCases.map(\.name).joined(separator: ", ")
                throw .usage("--io must be one of \(names), not '\(io)'")
            }
            f.io = command
        }
        (f.value, f.packetType, f.ackRequested) = (value, packetType, ackRequested)
        return f
    }

    /// A byte given as decimal or 0xNN.
    static func byteValue(_ s: String, _ option: String) throws(CLIError) -> UInt8 {
        let t = s.lowercased()
        let v = t.hasPrefix("0x") ? Int(t.dropFirst(2), radix: 16) : Int(t)
        guard let v, (0...255).contains(v) else { throw .usage("\(option) must be 0-255 or 0x00-0xff, not '\(s)'") }
        return UInt8(v)
    }

    /// The option that sets `field`.
    static func option(_ field: MessageFieldName) -> String {
        switch field {
        case .text: "--text"
        case .payload: "--data"
        case .pin: "--pin"
        case .state: "--state"
        case .range: "--range"
        case .steering: "--steer"
        case .acceleration: "--accel"
        case .command: "--command"
        case .counter: "--counter"
        case .atCommands: "--at"
        case .apiIdentifier: "--api-id"
        case .volts: "--volts"
        case .sampleHz: "--sample-hz"
        case .io: "--io"
        case .value: "--value"
        case .packetType: "--packet-type"
        }
    }

    /// An encoding error in the options' words.
    static func describe(_ error: MessageEncodingError, _ proto: ByteProtocol) -> String {
        func number(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        switch error {
        case .missing(_, .atCommands): return "--protocol xbee-at needs --at (e.g. --at \"BD 3\")"
        case .missing(let p, let field): return "--protocol \(p.rawValue) needs \(option(field))"
        case .outOfRange(let field, let lowest, nil): return "\(option(field)) must be above \(number(lowest))"
        case .outOfRange(let field, let lowest, let highest?):
            let span = lowest < 0 ? "\(number(lowest))...\(number(highest))" : "\(number(lowest))-\(number(highest))"
            return "\(option(field)) must be \(span) for \(proto.rawValue)"
        case .tooLong(_, let maximum): return "a \(proto.rawValue) payload is at most \(maximum) bytes"
        }
    }
}
