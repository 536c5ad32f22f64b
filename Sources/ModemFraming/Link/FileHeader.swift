/// The first message of a file transfer over the reliable link: magic "SMF1", size
/// (8 bytes little-endian), CRC-32 of the content (4 bytes little-endian), then the file's
/// base name in UTF-8. The content follows as the next message.
public struct FileHeader: Sendable, Equatable {
    /// The first four bytes of every header, "SMF1" in ASCII.
    public static let magic: [UInt8] = Array("SMF1".utf8)
    /// The file's base name (no directory), sent in UTF-8.
    public var name: String
    /// The content's length in bytes.
    public var size: UInt64
    /// The CRC-32 (``CRC32``) of the whole content.
    public var crc: UInt32

    /// A header from its fields; nothing is checked here (``decode(_:)`` checks the name).
    public init(name: String, size: UInt64, crc: UInt32) {
        self.name = name
        self.size = size
        self.crc = crc
    }

    /// The header message to send: magic, size and CRC-32 (little-endian), then the name in
    /// UTF-8.
    public var encoded: [UInt8] {
        var out = Self.magic
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: size >> (8 * UInt64(i)))) }
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i)))) }
        return out + Array(name.utf8)
    }

    /// Decodes a header message; nil without the magic, with a short message, or with a
    /// name that is empty, not UTF-8, longer than 255 bytes, contains '/' or a NUL, or is
    /// "." or ".." (so a receiver can use it as a file name safely).
    public static func decode(_ m: [UInt8]) -> FileHeader? {
        guard m.count > 16, m.prefix(4).elementsEqual(magic), m.count - 16 <= 255 else { return nil }
        var size: UInt64 = 0
        for i in 0..<8 { size |= UInt64(m[4 + i]) << (8 * UInt64(i)) }
        var crc: UInt32 = 0
        for i in 0..<4 { crc |= UInt32(m[12 + i]) << (8 * UInt32(i)) }
        let nameBytes = Array(m[16...])
        guard !nameBytes.contains(0), !nameBytes.contains(UInt8(ascii: "/")),
            let name = String(validating: nameBytes, as: UTF8.self), name != ".", name != ".."
        else { return nil }
        return FileHeader(name: name, size: size, crc: crc)
    }
}
