import ArgumentParser
import ModemFraming

/// The fields that build one message of a byte protocol (`encode` and `tx` only: on
/// `decode` and `rx` they would mean nothing, and are not offered).
struct MessageFieldOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("pin, pin-reply: pin number (2-13).", valueName: "n"))
    var pin: Int?

    @Option(name: .long, help: ArgumentHelp("pin, pin-reply: on/off, high/low or 1/0.", valueName: "state"))
    var state: String?

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
        help: ArgumentHelp("Payload as hex (accessory, xbee-api, slip, cobs, link, toggle).", valueName: "hex"))
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

    /// The bytes of the message of `proto` described by the options (`text` is the command's --text).
    func encode(_ proto: ByteProtocol, text: String?) throws(CLIError) -> [UInt8] {
        func need<T>(_ value: T?, _ option: String) throws(CLIError) -> T {
            guard let value else { throw .usage("--protocol \(proto.rawValue) needs \(option)") }
            return value
        }
        func byteValue(_ s: String, _ option: String) throws(CLIError) -> UInt8 {
            let t = s.lowercased()
            let v = t.hasPrefix("0x") ? Int(t.dropFirst(2), radix: 16) : Int(t)
            guard let v, (0...255).contains(v) else { throw .usage("\(option) must be 0-255 or 0x00-0xff, not '\(s)'") }
            return UInt8(v)
        }
        func payload() throws(CLIError) -> [UInt8] {
            if let data {
                guard let bytes = parseHex(data) else { throw .usage("--data must be hex bytes, not '\(data)'") }
                return bytes
            }
            return text.map { Array($0.utf8) } ?? []
        }
        func highState() throws(CLIError) -> Bool {
            switch try need(state, "--state").lowercased() {
            case "on", "high", "1": return true
            case "off", "low", "0": return false
            case let s: throw .usage("--state must be on/off, high/low or 1/0, not '\(s)'")
            }
        }
        switch proto {
        case .line:
            return TextLine.encode(try need(text, "--text"))
        case .pin:
            let p = try need(pin, "--pin")
            guard let bytes = PinCommand.encode(pin: p, high: try highState()) else {
                throw .usage("--pin must be 2-13, not \(p)")
            }
            return bytes
        case .pinReply:
            return PinReply.encode(pin: try need(pin, "--pin"), state: try highState() ? 1 : 0)
        case .range:
            let r = try need(range, "--range")
            guard r >= 0 && r <= 99_999 else { throw .usage("--range must be 0-99999 cm, not \(r)") }
            return RangeReading.encodeLine(centimetres: r)
        case .ez1:
            let r = try need(range, "--range")
            guard (0...255).contains(r) else { throw .usage("--range must be 0-255 inches for ez1, not \(r)") }
            return RangeReading.encodeEZ1(inches: r)
        case .toggle:
            return data == nil ? [StreamToggle.defaultByte] : Array(try payload().prefix(1))
        case .motor:
            let s = steer ?? 0
            let a = accel ?? 0
            guard (-255...255).contains(s), (-255...255).contains(a) else {
                throw .usage("--steer and --accel must be -255...255")
            }
            return MotorCommand(steering: s, acceleration: a, headlights: headlights, brakeLights: brake).raw
        case .accessory:
            let c = try byteValue(try need(command, "--command"), "--command")
            let n = counter ?? 0
            guard (0...255).contains(n) else { throw .usage("--counter must be 0-255 for accessory frames") }
            let body = try payload()
            guard body.count <= AccessoryFrame.maximumPayload else {
                throw .usage("accessory payload is at most \(AccessoryFrame.maximumPayload) bytes")
            }
            return AccessoryFrame(counter: UInt8(n), command: c, payload: body).raw
        case .xbeeAT:
            guard !at.isEmpty else { throw .usage("--protocol xbee-at needs --at (e.g. --at \"BD 3\")") }
            return at.flatMap { Array("AT\($0)\r".utf8) }
        case .xbeeReply:
            return Array("\(text ?? "OK")\r".utf8)
        case .xbeeAPI, .xbeeAPI2:
            let id = try byteValue(try need(apiId, "--api-id"), "--api-id")
            let body = try payload()
            guard body.count < XBeeAPIFrame.maximumData else {
                throw .usage("XBee API data is at most \(XBeeAPIFrame.maximumData - 1) bytes")
            }
            return XBeeAPIFrame(apiIdentifier: id, data: body, escaped: proto == .xbeeAPI2).raw
        case .slip:
            return SLIPPacket(payload: try payload()).raw
        case .cobs:
            return COBSPacket(payload: try payload()).raw
        case .hijack:
            let v = try need(volts, "--volts")
            guard v.isFinite, (0...HiJackSample.fullScale).contains(v) else { throw .usage("--volts must be 0-2.75") }
            return [HiJackSample.byte(forVolts: v)]
        case .hijackRate:
            let hz = try need(sampleHz, "--sample-hz")
            guard hz.isFinite, hz > 0 else { throw .usage("--sample-hz must be positive") }
            return [HiJackRate.byte(forHertz: hz)]
        case .link:
            let body = try payload()
            guard body.count <= 243 else { throw .usage("a link packet carries at most 243 bytes") }
            return LinkPacket(kind: .dataEnd, seq: UInt16(truncatingIfNeeded: counter ?? 0), payload: body).wireBytes
        }
    }
}
