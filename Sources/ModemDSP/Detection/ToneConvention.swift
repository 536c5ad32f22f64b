/// Which tone is mark, by the convention of the modem whose tone pair a burst has.
///
/// Why: framing alone cannot tell mark from space. 8N1 text sent back to back is also a
/// valid 8N1 stream when inverted and shifted by one bit (every ASCII character's top bit
/// is 0, which the inverted reading takes as its stop bit), so a receiver that guesses
/// from the line (the tone of the longest run, the reading with fewer errors in a short
/// opening) prints garbage now and then. Every modem the tool knows fixes the assignment:
/// SoftModem (every rate, as a 16 MHz or an 8 MHz Arduino really sends it, and the phone
/// apps) and WebJack send mark on the higher tone, Bell 103 originate on 1270 Hz (the
/// higher), Bell 103 answer on 2225 Hz (the higher), Bell 202 on 1200 Hz (the lower).
///
/// A pair matches when each tone is within ``tolerance`` of the convention's (either way
/// round). Pairs of no known modem (`minimodem -M 1200 -S 2400`) are left to the burst's
/// own evidence (``AutoReceiver``'s two readings).
public enum ToneConvention {
    /// One known modem's tones.
    public struct Pair: Sendable, Equatable {
        public var mark: Double
        public var space: Double
        public var name: String
    }

    /// Relative difference of each tone that still matches: an Arduino's square waves
    /// come 2-4 % off its profile's tones (the 126-baud board's real 1953 Hz mark is
    /// listed by itself), and no two pairs below are closer than 8 % in both tones.
    public static let tolerance = 0.04

    /// The tone pairs of every modem the tool knows, with their mark.
    public static let pairs: [Pair] = [
        Pair(mark: 7350, space: 4900, name: "SoftModem 1225/2450 baud"),
        Pair(mark: 6300, space: 3150, name: "SoftModem 630 baud"),
        Pair(mark: 6579, space: 3205, name: "SoftModem 630 baud (16 MHz Arduino)"),
        Pair(mark: 3150, space: 1575, name: "SoftModem 315 baud"),
        Pair(mark: 3289, space: 1603, name: "SoftModem 315 baud (16 MHz Arduino)"),
        Pair(mark: 1764, space: 882, name: "SoftModem 126 baud"),
        Pair(mark: 1953, space: 919, name: "SoftModem 126 baud (16 MHz Arduino)"),
        Pair(mark: 1836, space: 893, name: "SoftModem 126 baud (8 MHz Arduino)"),
        Pair(mark: 1260, space: 630, name: "SoftModem phone app 126 baud"),
        Pair(mark: 4900, space: 2450, name: "WebJack"),
        Pair(mark: 1270, space: 1070, name: "Bell 103 originate"),
        Pair(mark: 2225, space: 2025, name: "Bell 103 answer"),
        Pair(mark: 1200, space: 2200, name: "Bell 202"),
    ]

    /// The convention whose tones `a` and `b` are (in either order), if any.
    public static func pair(_ a: Double, _ b: Double) -> Pair? {
        func near(_ x: Double, _ y: Double) -> Bool { abs(x / y - 1) <= tolerance }
        return pairs.first { p in
            (near(a, p.mark) && near(b, p.space)) || (near(a, p.space) && near(b, p.mark))
        }
    }

    /// `signature` with mark and space as its tone pair's convention has them; nil when
    /// the pair is no known modem's.
    public static func oriented(_ signature: ModemSignature) -> ModemSignature? {
        guard let p = pair(signature.mark, signature.space) else { return nil }
        let markIsUpper = p.mark > p.space
        guard (signature.mark > signature.space) != markIsUpper else { return signature }
        var s = ModemSignature(mark: signature.space, space: signature.mark, baud: signature.baud)
        s.toneBits = signature.toneBits
        return s
    }
}
