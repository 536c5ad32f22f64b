/// What a burst's characters say of their format when every one of them reads cleanly
/// both as 7 data bits and as 8N1 with the top bit set (see ``BurstReadings``).
///
/// The line cannot tell these apart, but what is sent can:
/// - text: the 7-bit reading is printable ASCII (tab, line feed and carriage return
///   allowed) throughout, which is what a 7-bit format carries; as 8N1 the same bytes are
///   0xA0-0xFE with a few control codes, which no 8-bit text or random data stays within;
/// - UTF-8: the 8N1 reading is valid UTF-8 with ``minimumMultibyte`` characters of more
///   than one byte (text in a script other than Latin: every byte of Japanese is 0x80 or
///   above); ASCII text read with its top bit set is not (a lowercase letter becomes a
///   lead byte that punctuation would have to follow).
///
/// Edge cases:
/// - fewer than ``FormatProof/minimumDistinct`` distinct characters (16 bytes of 0xFF):
///   8N1, the format detection keeps everywhere until another is proven, and one
///   character again and again proves nothing (``FormatProof``);
/// - otherwise, both or neither of text and UTF-8 (random binary with the top bit set, a
///   short burst): nil, and the burst is not printed;
/// - characters with framing or parity errors are left out.
enum TopBitContent {
    /// The format the characters favour.
    enum Choice: Equatable {
        case seven
        case eight
    }

    /// Characters the 7-bit reading must hold, all of them text, for text to decide:
    /// random bytes with the top bit set pass as text (98 of 128 values) in about one burst
    /// in 5,000 at this length.
    static let minimumText = 32

    /// Characters of two bytes or more the 8N1 reading must hold, all of it valid UTF-8.
    static let minimumMultibyte = 4

    /// The choice for the characters `seven` (read in the 7-bit format) and `eight` (read
    /// as 8N1), or nil when they favour neither.
    static func choice(seven: [ModemEvent], eight: [ModemEvent]) -> Choice? {
        var seen = DistinctBytes()
        for e in seven where e.kind == .byte { seen.insert(e.value) }
        if seen.count < FormatProof.minimumDistinct { return .eight }
        let text = isText(seven.lazy.filter { $0.kind == .byte }.map(\.value))
        let utf8 = isMultibyteUTF8(eight.lazy.filter { $0.kind == .byte }.map(\.value))
        switch (text, utf8) {
        case (true, false): return .seven
        case (false, true): return .eight
        default: return nil
        }
    }

    /// True when `values` are at least ``minimumText`` characters of printable ASCII, tab,
    /// line feed or carriage return.
    static func isText<C: Collection<UInt8>>(_ values: C) -> Bool {
        values.count >= minimumText
            && values.allSatisfy { (0x20...0x7E).contains($0) || $0 == 9 || $0 == 10 || $0 == 13 }
    }

    /// True when `values` are valid UTF-8 holding at least ``minimumMultibyte`` characters
    /// of more than one byte.
    static func isMultibyteUTF8<C: Collection<UInt8>>(_ values: C) -> Bool {
        guard let text = String(validating: values, as: UTF8.self) else { return false }
        return text.unicodeScalars.count { $0.value >= 0x80 } >= minimumMultibyte
    }
}
