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
    /// One known modem's tones, and the bit rates it sends them at.
    public struct Pair: Sendable, Equatable {
        /// The modem's mark tone, in Hz.
        public var mark: Double
        /// The modem's space tone, in Hz.
        public var space: Double
        /// The modem's name, which a ``Detection`` cites as proof of its mark
        /// (``Detection/MarkEvidence/convention(_:)``).
        public var name: String
        /// Mean bit rates (an Arduino's mark and space bits differ in length below 1225 baud).
        public var rates: [Double]

    }

    /// Relative difference of a measured bit rate that still counts as one of a pair's.
    public static let rateTolerance = 0.06

    /// Relative difference of each tone that still matches: an Arduino's square waves
    /// come 2-4 % off its profile's tones (the 126-baud board's real 1953 Hz mark is
    /// listed by itself), and no two pairs below are closer than 8 % in both tones.
    public static let tolerance = 0.04

    /// The tone pairs of every modem the tool knows, with their mark.
    public static let pairs: [Pair] = [
        Pair(mark: 7350, space: 4900, name: "SoftModem 1225/2450 baud", rates: [1225, 2450]),
        Pair(mark: 6300, space: 3150, name: "SoftModem 630 baud", rates: [630]),
        // Measured on the real library in emulation (../shared/emulated-board): bits of
        // 1520/1560, 3040/3120, 7168/7616 (16 MHz) and about 7612/7844 us (8 MHz).
        Pair(mark: 6579, space: 3205, name: "SoftModem 630 baud (Arduino)", rates: [649.4]),
        Pair(mark: 3150, space: 1575, name: "SoftModem 315 baud", rates: [315]),
        Pair(mark: 3289, space: 1603, name: "SoftModem 315 baud (Arduino)", rates: [324.7]),
        Pair(mark: 1764, space: 882, name: "SoftModem 126 baud", rates: [126]),
        Pair(mark: 1953, space: 919, name: "SoftModem 126 baud (16 MHz Arduino)", rates: [135.3]),
        Pair(mark: 1836, space: 893, name: "SoftModem 126 baud (8 MHz Arduino)", rates: [129.4]),
        Pair(mark: 1260, space: 630, name: "SoftModem phone app 126 baud", rates: [126]),
        Pair(mark: 4900, space: 2450, name: "WebJack", rates: [1225]),
        Pair(mark: 1270, space: 1070, name: "Bell 103 originate", rates: [300]),
        Pair(mark: 2225, space: 2025, name: "Bell 103 answer", rates: [300]),
        Pair(mark: 1200, space: 2200, name: "Bell 202", rates: [1200]),
    ]

    /// The convention whose tones `a` and `b` are (in either order), if any.
    public static func pair(_ a: Double, _ b: Double) -> Pair? { matching(a, b).first }

    /// Every convention whose tones `a` and `b` are, in either order (pairs overlap: the
    /// two Arduinos at "126" send within 6 % of each other).
    static func matching(_ a: Double, _ b: Double) -> [Pair] {
        func near(_ x: Double, _ y: Double) -> Bool { abs(x / y - 1) <= tolerance }
        return pairs.filter { p in
            (near(a, p.mark) && near(b, p.space)) || (near(a, p.space) && near(b, p.mark))
        }
    }

    /// The bit rates of every known modem whose tones `a` and `b` are (in either order),
    /// nearest pair first.
    public static func rates(_ a: Double, _ b: Double) -> [Double] {
        func distance(_ p: Pair) -> Double {
            let (hi, lo) = (max(a, b), min(a, b))
            return abs(hi / max(p.mark, p.space) - 1) + abs(lo / min(p.mark, p.space) - 1)
        }
        var rates: [Double] = []
        for p in matching(a, b).sorted(by: { distance($0) < distance($1) }) {
            for r in p.rates where !rates.contains(r) { rates.append(r) }
        }
        return rates
    }

    /// `signature` with mark and space as its tone pair's convention has them; nil when
    /// the pair is no known modem's.
    public static func oriented(_ signature: ModemSignature) -> ModemSignature? {
        guard let p = pair(signature.mark, signature.space) else { return nil }
        let markIsUpper = p.mark > p.space
        guard (signature.mark > signature.space) != markIsUpper else { return signature }
        return signature.swappedTones
    }

    /// `signature` as its tone pair's modem has it: mark by the convention, and the bit
    /// rate the modem's own when the measured one is within ``rateTolerance`` of it (a
    /// SoftModem burst measured at 1200 baud is said to be 1225); unchanged for a pair of
    /// no known modem. Rates measured farther off stay as measured.
    public static func named(_ signature: ModemSignature) -> ModemSignature {
        guard let oriented = oriented(signature) else { return signature }
        // The nearest of the rates in reach: the two Arduinos at "126" send 4.5 % apart.
        let rate = rates(oriented.mark, oriented.space).filter { abs(oriented.baud / $0 - 1) <= rateTolerance }
            .min { abs(oriented.baud / $0 - 1) < abs(oriented.baud / $1 - 1) }
        guard let rate, rate != oriented.baud else { return oriented }
        var s = ModemSignature(mark: oriented.mark, space: oriented.space, baud: rate)
        s.toneBits = oriented.toneBits
        return s
    }
}
