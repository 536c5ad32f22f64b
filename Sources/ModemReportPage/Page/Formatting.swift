import Foundation
import ModemReport

/// Numbers, text and script literals as the report prints them.
enum Formatting {
    /// Fixed decimals, "-" for NaN and infinities.
    static func number(_ x: Double, _ digits: Int) -> String {
        x.isFinite ? String(format: "%.\(digits)f", x) : "-"
    }

    static func hex(_ byte: UInt8) -> String { String(format: "%02X", byte) }

    /// Bytes as readable text: printable ASCII kept, newline kept when `lines`, anything else
    /// as a middle dot (the hex tables show the value).
    static func text(_ bytes: some Sequence<UInt8>, lines: Bool = true) -> String {
        String(
            bytes.map { b -> Character in
                if b >= 0x20 && b < 0x7F { return Character(Unicode.Scalar(b)) }
                if lines && b == 0x0A { return "\n" }
                return "\u{00B7}"
            })
    }

    /// A JavaScript string literal safe inside a <script> element.
    static func jsString(_ s: String) -> String { JSONText.quoted(s, scriptSafe: true) }

    /// A number as a script literal (NaN as null, which the charts skip).
    static func js(_ x: Double, _ digits: Int) -> String { x.isFinite ? String(format: "%.\(digits)f", x) : "null" }
}
