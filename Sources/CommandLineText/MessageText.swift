public import ModemFraming
import ModemReport

/// One parsed message of a byte protocol as a line of output: its time and text form, or
/// one JSON object `{"time":..,"protocol":..,"fields":{..},"text":..,"raw":".."}`.
public enum MessageText {
    /// The line for `message` of `proto` at `time` seconds, without its newline.
    ///
    /// Non-finite numbers in fields are JSON `null`; bytes are hex strings.
    public static func line(_ message: any FramedMessage, of proto: ByteProtocol, at time: Double, json: Bool)
        -> String
    {
        guard json else { return "\(seconds(time)) \(message.description)" }
        var line = "{\"time\":\(seconds(time)),\"protocol\":\"\(proto.rawValue)\",\"fields\":{"
        line += message.fields.map { "\(JSONText.quoted($0.name)):\(value($0.value))" }.joined(separator: ",")
        line += "},\"text\":\(JSONText.quoted(message.description)),\"raw\":\"\(hexString(message.raw))\"}"
        return line
    }

    /// Seconds to the millisecond ("12.034"), as messages carry their time.
    static func seconds(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        return "\(ms / 1000).\(String(1000 + ms % 1000).dropFirst())"
    }

    static func value(_ v: FieldValue) -> String {
        switch v {
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return JSONText.quoted(s)
        case .bytes(let b): return "\"\(hexString(b))\""
        }
    }
}
