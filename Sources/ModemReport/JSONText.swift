/// JSON text for the reports and the command line's JSON output.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included: `"` and `\` escaped, newline, return
    /// and tab as `\n`, `\r`, `\t`, other control characters as `\u00xx`.
    ///
    /// `scriptSafe` also escapes "<", ">", "&" and the line separators U+2028 and U+2029, so
    /// the literal can stand inside an HTML `<script>` element as a JavaScript string.
    public static func quoted(_ s: String, scriptSafe: Bool = false) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                // A `where` would guard only the last pattern: test the flag inside.
                if scriptSafe { out += unicodeEscape(u) } else { out.unicodeScalars.append(u) }
            default:
                if u.value < 0x20 { out += unicodeEscape(u) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// `\uxxxx` with four lower-case hex digits (for scalars below U+10000).
    private static func unicodeEscape(_ u: Unicode.Scalar) -> String {
        let hex = String(u.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// Benchmark JSON without Foundation: objects with sorted keys, numbers that JSON can hold.
extension JSONText {
    /// `v` as a JSON number; null for a non-finite value, which JSON cannot hold.
    public static func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }

    /// An object of already-encoded values, keys sorted; one field a line with `multiline`.
    public static func object(_ fields: [(String, String)], multiline: Bool = false) -> String {
        let sorted = fields.sorted { $0.0 < $1.0 }.map { "\"\($0.0)\": \($0.1)" }
        return multiline
            ? "{\n  " + sorted.joined(separator: ",\n  ") + "\n}" : "{" + sorted.joined(separator: ", ") + "}"
    }
}
