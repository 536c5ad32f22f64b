import ModemAudioIO
import ModemFraming
import ModemReport

/// Parses decoded bytes with one byte protocol and prints each message on stdout: its text
/// form, or with `json` one JSON object per line `{"time":..,"protocol":..,"fields":{..},"raw":".."}`.
final class MessagePrinter {
    let proto: ByteProtocol
    let json: Bool
    private var parser: any MessageParser
    private var sink = ByteSink()
    private(set) var messages = 0
    private var lastTime = 0.0

    init(proto: ByteProtocol, json: Bool) {
        self.proto = proto
        self.json = json
        parser = proto.makeParser()
    }

    var discardedBytes: Int { parser.discardedBytes }

    func push(_ byte: UInt8, at time: Double) throws(CLIError) {
        lastTime = time
        for m in parser.pushAny(byte, at: time) { try print(m, at: time) }
    }

    /// Lets time pass with no byte (live): completes a message whose end is a pause.
    func advance(to time: Double) throws(CLIError) {
        guard time > lastTime, let m = parser.advanceAny(to: time) else { return }
        try print(m, at: lastTime)
    }

    /// Lets the end of the input count as silence (completes a trailing XBee "+++").
    func finish() throws(CLIError) {
        if let m = parser.advanceAny(to: lastTime + 3600) { try print(m, at: lastTime) }
        do { try sink.flush() } catch { throw CLIError(error) }
    }

    private func print(_ m: any FramedMessage, at time: Double) throws(CLIError) {
        messages += 1
        var line: String
        if json {
            line = "{\"time\":\(Self.number(time)),\"protocol\":\"\(proto.rawValue)\",\"fields\":{"
            line += m.fields.map { "\(JSONText.quoted($0.name)):\(Self.json($0.value))" }.joined(separator: ",")
            line += "},\"text\":\(JSONText.quoted(m.description)),\"raw\":\"\(hexString(m.raw))\"}"
        } else {
            line = "\(Self.number(time)) \(m.description)"
        }
        do {
            try sink.write(Array(line.utf8))
            try sink.write(10)
            try sink.flush()
        } catch {
            throw CLIError(error)
        }
    }

    private static func number(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        return "\(ms / 1000).\(String(1000 + ms % 1000).dropFirst())"
    }

    private static func json(_ v: FieldValue) -> String {
        switch v {
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return JSONText.quoted(s)
        case .bytes(let b): return "\"\(hexString(b))\""
        }
    }
}
