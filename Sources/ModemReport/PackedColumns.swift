import ExtrasBase64

/// Columns of numbers that a report document carries as base64 of their IEEE 754 bits
/// (little-endian), one string per column, instead of one JSON number per value.
///
/// A spectrogram is half a million values. As JSON numbers the 10-minute capture's took
/// 5.5 MB and 0.5 s to write and read, as long as the analysis itself; as bits it is exact
/// (NaN and infinities included) and costs almost nothing.
@propertyWrapper
public struct PackedColumns: Sendable, Codable {
    /// The columns; a round trip through JSON keeps every value's bits, NaN included.
    public var wrappedValue: [[Float]]

    /// Wraps `wrappedValue` unchanged.
    public init(wrappedValue: [[Float]]) {
        self.wrappedValue = wrappedValue
    }

    /// Encodes one base64 string per column: each value's 4 IEEE 754 bytes, little-endian.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for column in wrappedValue {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(column.count * 4)
            for x in column {
                let bits = x.bitPattern
                for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
            }
            try container.encode(Base64.encodeToString(bytes: bytes))
        }
    }

    /// Decodes the base64 strings; throws `DecodingError.dataCorrupted` for a string that is
    /// not base64 of whole 4-byte values.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var columns: [[Float]] = []
        while !container.isAtEnd {
            let text = try container.decode(String.self)
            guard let bytes = try? Base64.decode(string: text), bytes.count % 4 == 0 else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a column is not base64 of 4-byte numbers")
            }
            var column: [Float] = []
            column.reserveCapacity(bytes.count / 4)
            for i in stride(from: 0, to: bytes.count, by: 4) {
                var bits: UInt32 = 0
                for k in 0..<4 { bits |= UInt32(bytes[i + k]) << (8 * k) }
                column.append(Float(bitPattern: bits))
            }
            columns.append(column)
        }
        wrappedValue = columns
    }
}
