/// The character format a burst's opening proves, worked out from its line bits.
///
/// A reading without errors, in whatever format, gives the line back bit for bit: each
/// character's start bit, data, parity and stop bits, then the idle mark up to the next
/// start bit (measured from the characters' sample times). Reading those bits again in
/// every format, as a serial receiver would, costs next to nothing, and the format that
/// explains them best is chosen:
///
/// - it reads every character with no framing or parity error;
/// - it leaves the fewest bits unexplained: data bits, plus 2 for each character that does
///   not follow the last one directly (a 5N2 line read as 5N1 has as many data bits but a
///   gap after every character; a 7E1 line read as 8N1 has an eighth data bit that its
///   parity explains);
/// - two stop bits only when every character follows the last one directly (characters
///   that stand apart with idle line between them read the same with one stop bit or two);
/// - on a tie, the more common format (``formats`` is in that order).
///
/// Each parity bit that checks, each stop bit that is mark, is one bit of evidence. With
/// the fewest characters, ``minimumFrames`` (the first ``settlingFrames`` not checked), a
/// format that random data does not support passes by chance in about one burst in 60 (a
/// handful of such formats, 1 in 256 each); with the 30 or so characters of a 1225-baud
/// burst's opening, never in practice. What the line cannot decide: an 8N1 sender whose
/// every character has its top bit set reads as 7N2 (the receiver then reads the burst both
/// ways, ``BurstReadings``, and prints it only when the burst decides), and a line with
/// idle gaps of exactly one bit as two stop bits (the bytes are the same).
struct FormatProof: Sendable {
    /// Every format tried, most common first: a tie goes to the earlier.
    static let formats: [FrameFormat] = [
        format(8), format(7, .even), format(7, .odd), format(8, .even), format(8, .odd), format(7), format(6),
        format(5), format(8, stop: 2), format(7, .even, stop: 2), format(7, .odd, stop: 2), format(8, .even, stop: 2),
        format(8, .odd, stop: 2), format(7, stop: 2), format(6, .even), format(6, .odd), format(5, .even),
        format(5, .odd), format(6, stop: 2), format(5, stop: 2), format(6, .even, stop: 2), format(6, .odd, stop: 2),
        format(5, .even, stop: 2), format(5, .odd, stop: 2),
    ]

    /// Characters a reading must hold, without an error from the first on, before its bits
    /// prove anything.
    static let minimumFrames = 10

    /// The first characters, read while the demodulator's bit clock settles, are not held
    /// against a format: a bit misread in one of them (seen at 1200 baud, the second
    /// character's start a third of a bit late) would rule out the right one.
    static let settlingFrames = 2

    /// Unexplained bits charged for a character that does not follow the last one directly.
    static let gapCost = 2

    /// Idle mark appended after the last character: enough for the longest frame to end
    /// there (a longer format must not lose the last character to the cut).
    static let tailBits = 8

    /// The line from the first character's start bit on, true for mark.
    let line: [Bool]

    /// How one format reads ``line``.
    struct Reading: Equatable {
        var frames = 0
        var dataBits = 0
        /// Characters that did not start right after the previous one's last stop bit.
        var gaps = 0
        /// Of those, the ones that started one idle bit after it.
        var oneBitGaps = 0
        /// Distinct values among the characters checked (after the ``settlingFrames``): the
        /// same character again checks nothing new.
        var distinct = 0

        /// Bits the format leaves unexplained.
        var cost: Int { dataBits + FormatProof.gapCost * gaps }
    }

    init(line: [Bool]) { self.line = line }

    /// The line rebuilt from a reading in `format`: its characters from the first up to the
    /// first error, with the idle mark between them; nil when there are fewer than
    /// ``minimumFrames``.
    init?(reading events: [ModemEvent], format: FrameFormat, samplesPerBit: Double) {
        let clean = events.prefix { $0.kind == .byte }
        guard clean.count >= Self.minimumFrames, samplesPerBit > 0 else { return nil }
        var line: [Bool] = []
        line.reserveCapacity(clean.count * (format.bitsPerFrame + 2) + Self.tailBits)
        var previous: ModemEvent?
        for event in clean {
            if let p = previous {
                // Start to start: near a burst's start, the time between one character's end
                // and the next one's start can be half a bit off (start to start, 0.4 at most).
                let span = (Double(event.startSample - p.startSample) / samplesPerBit).rounded()
                let idle = min(span, 1000) - Double(format.bitsPerFrame)
                line.append(contentsOf: repeatElement(true, count: Int(max(0, idle))))
            }
            let bits = format.wireBits(for: event.value)
            for k in 0..<format.bitsPerFrame { line.append(bits >> UInt32(k) & 1 == 1) }
            previous = event
        }
        line.append(contentsOf: repeatElement(true, count: Self.tailBits))
        self.init(line: line)
    }

    /// ``line`` read in `format` by a serial receiver: it hunts for a start bit (space)
    /// from the end of the last character on; nil at the first framing or parity error
    /// after the ``settlingFrames``.
    func read(_ format: FrameFormat) -> Reading? {
        var r = Reading()
        let length = format.bitsPerFrame
        let dataEnd = 1 + format.dataBits
        let parityAt = format.parity == .none ? -1 : dataEnd
        var i = 0
        var lastEnd = -1
        var seen = DistinctBytes()
        while true {
            while i < line.count && line[i] { i += 1 }
            guard i + length <= line.count else { break }
            var value: UInt8 = 0
            for k in 1..<dataEnd where line[i + k] { value |= 1 << UInt8(k - 1) }
            if r.frames >= Self.settlingFrames {
                if parityAt >= 0, line[i + parityAt] != format.parityBit(for: value) { return nil }
                for k in (length - format.stopBits)..<length where !line[i + k] { return nil }
                seen.insert(value)
            }
            if lastEnd >= 0, i > lastEnd {
                r.gaps += 1
                if i == lastEnd + 1 { r.oneBitGaps += 1 }
            }
            r.frames += 1
            r.dataBits += format.dataBits
            i += length
            lastEnd = i
        }
        r.distinct = seen.count
        return r
    }

    /// Distinct characters a format other than 8N1 must have checked to be proven: each
    /// passes a random format's parity or stop bit by chance about half the time, the same
    /// character again always (a text's opening of 30 spaces reads as 7O1 throughout).
    static let minimumDistinct = 10

    /// What ``best()`` found.
    enum Best: Equatable {
        /// This format explains the line best, on enough distinct characters.
        case proven(FrameFormat)
        /// A format other than 8N1 explains it best so far, on too few distinct characters.
        case needsMore
        /// No format reads ``minimumFrames`` characters cleanly.
        case none
    }

    /// The format that explains ``line`` best (see the type's summary).
    func best() -> Best {
        var best: (format: FrameFormat, cost: Int, distinct: Int)?
        for format in Self.formats {
            guard let r = read(format), r.frames >= Self.minimumFrames else { continue }
            if format.stopBits == 2, r.gaps > 0 { continue }
            if best == nil || r.cost < best!.cost { best = (format, r.cost, r.distinct) }
        }
        guard let best else { return .none }
        if best.format != .eightN1, best.distinct < Self.minimumDistinct { return .needsMore }
        return .proven(best.format)
    }

    private static func format(_ bits: Int, _ parity: Parity = .none, stop: Int = 1) -> FrameFormat {
        try! FrameFormat(dataBits: bits, parity: parity, stopBits: stop)
    }
}

extension FrameFormat {
    /// Space bits this close or closer in a frame are not clicks (see
    /// ``spaceBitsStandApart(_:)``): reversals (0x55 in 8N1) have one every other bit.
    static let clickSpacing = 3

    /// True when every space bit of `value`'s frame (its start bit included) stands alone,
    /// at least ``clickSpacing`` bits from the next: what a train of clicks reads as. A
    /// tone whose phase jumps at every bit of a slower sender clicks at each jump, and a
    /// faster profile's reading puts a lone space bit there. 0xFF in 8N1 (the start bit
    /// alone) is the simplest; 0x55 is not one.
    func spaceBitsStandApart(_ value: UInt8) -> Bool {
        let bits = wireBits(for: value)
        var last = -Self.clickSpacing
        for k in 0..<bitsPerFrame where bits >> UInt32(k) & 1 == 0 {
            if k - last < Self.clickSpacing { return false }
            last = k
        }
        return true
    }

    /// True when `events` hold characters and every one has only lone space bits far apart
    /// (``spaceBitsStandApart(_:)``): what clicks at a tone's bit boundaries frame.
    func readsAsClicks(_ events: some Collection<ModemEvent>) -> Bool {
        !events.isEmpty && events.allSatisfy { spaceBitsStandApart($0.value) }
    }
}
