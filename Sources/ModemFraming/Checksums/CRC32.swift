/// CRC-32 (IEEE 802.3, as in zlib and PNG): reflected polynomial 0xEDB88320, initial
/// 0xFFFFFFFF, final XOR 0xFFFFFFFF. Check value for "123456789" is 0xCBF43926.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { i in
        var c = UInt32(i)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        return c
    }

    /// Continues a running CRC (pass the previous result; start with 0).
    public static func update(_ crc: UInt32, _ bytes: some Sequence<UInt8>) -> UInt32 {
        var c = ~crc
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return ~c
    }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 { update(0, bytes) }
}
