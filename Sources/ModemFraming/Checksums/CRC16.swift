/// CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final
/// XOR. Check value for "123456789" is 0x29B1. Chosen for accessory frames because it is
/// the common choice of small accessory protocols and is cheap on an AVR (bitwise, no table).
public enum CRC16 {
    /// Continues a CRC over `bytes`; start with `0xFFFF`.
    public static func update(_ crc: UInt16, _ bytes: some Sequence<UInt8>) -> UInt16 {
        var c = crc
        for b in bytes {
            c ^= UInt16(b) << 8
            for _ in 0..<8 { c = c & 0x8000 != 0 ? (c << 1) ^ 0x1021 : c << 1 }
        }
        return c
    }

    /// The CRC-16/CCITT-FALSE of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt16 { update(0xFFFF, bytes) }
}
