/// One burst read two ways at once, its characters held until the burst itself proves
/// which reading is right: mark and space either way round, or seven data bits against
/// eight with the top bit set.
///
/// Why, for polarity: a tone pair of no known modem (``ToneConvention``) does not say
/// which tone is mark, and the opening of a burst cannot either: 8N1 text back to back
/// reads as valid 8N1 when inverted and shifted by a bit. What differs is the line around
/// the characters: every asynchronous sender idles on mark before its first start bit
/// (any preamble) and ends on a stop bit (mark), so the inverted reading meets a space it
/// cannot frame at one end or the other (a start bit the burst's end cuts, a preamble
/// read as a break).
///
/// Why, for the top bit: an 8N1 character whose top bit is 1 is, bit for bit, a 7-bit
/// character followed by mark (a second stop bit, or idle line), so an opening in which
/// every character has it set proves neither format (``FormatProof``). A later character
/// with its top bit clear breaks the 7-bit reading's stop bit; one that follows the last
/// with less than a bit of idle line breaks the 8N1 reading's. When neither breaks, the
/// characters decide (``TopBitContent``) or nothing is printed.
///
/// Over the whole burst the wrong reading has more errors; the right one is printed.
///
/// Edge cases:
/// - equal errors both ways (for polarity: a burst with no preamble and no room after its
///   last stop bit, or noise that hits both readings alike) prove nothing: nothing is
///   printed (``Outcome/unproven(characters:)``);
/// - a burst that goes on past ``holdLimit`` characters is decided there if its readings
///   differ by then (the rest streams), else abandoned as unproven: memory stays bounded;
/// - the cost is two demodulators for such bursts only, and their characters come out
///   when the burst ends instead of as they are decoded.
struct BurstReadings: Sendable {
    /// What the two readings differ in.
    enum Question: Sendable, Equatable {
        /// Mark and space: the first reading as the analysis named them, the second the
        /// other way round.
        case polarity
        /// The first reading in 7N1 (which reads a 7N2 line too), the second in 8N1.
        case topBit
    }

    /// Which reading the evidence chose.
    enum Outcome: Sendable, Equatable {
        case first
        case second
        /// Both readings fit equally: nothing printed; `characters` is how many the first
        /// reading held.
        case unproven(characters: Int)
    }

    /// Characters a reading holds before the burst is decided anyway (33 s at 1225 baud).
    static let holdLimit = 4096

    let question: Question
    /// True when the first reading is a convention's (``BurstOpening``): equal errors keep it.
    let tieGoesToFirst: Bool
    private var first: FSKDemodulator?
    private var second: FSKDemodulator?
    private var heldFirst: [ModemEvent] = []
    private var heldSecond: [ModemEvent] = []
    private(set) var outcome: Outcome?

    init(_ question: Question, _ first: FSKDemodulator, _ second: FSKDemodulator, tieGoesToFirst: Bool = false) {
        self.question = question
        self.tieGoesToFirst = tieGoesToFirst
        self.first = first
        self.second = second
    }

    /// The character format of the reading the evidence chose (the first's while undecided).
    var chosenFormat: FrameFormat {
        (outcome == .second ? second : first).map(\.configuration.format) ?? .eightN1
    }

    var isInBurst: Bool { (first?.isInBurst ?? false) || (second?.isInBurst ?? false) }

    mutating func process<S: RingSample>(_ samples: UnsafeBufferPointer<S>, into events: inout [ModemEvent]) {
        switch outcome {
        case .first?: S.feed(samples, to: &first!, into: &events)
        case .second?: S.feed(samples, to: &second!, into: &events)
        case .unproven?: return
        case nil:
            S.feed(samples, to: &first!, into: &heldFirst)
            S.feed(samples, to: &second!, into: &heldSecond)
            if max(heldFirst.count, heldSecond.count) >= Self.holdLimit { decide(into: &events) }
        }
    }

    mutating func flush(into events: inout [ModemEvent]) {
        switch outcome {
        case .first?: first!.flush(into: &events)
        case .second?: second!.flush(into: &events)
        case .unproven?: return
        case nil:
            first!.flush(into: &heldFirst)
            second!.flush(into: &heldSecond)
            decide(into: &events)
        }
    }

    /// Chooses the reading with fewer errors and hands out what it held; with as many
    /// errors both ways, the characters' own evidence for the top bit, else nothing.
    ///
    /// A convention's reading (``tieGoesToFirst``) does not count its errors before it moved
    /// its frame phase (``FramePhaseHistory``): they were its misframing of characters sent
    /// back to back, which says nothing of mark. Measured: a recording that starts inside a
    /// stream of Bell 202 text, read the convention's way, broke 3 characters before its
    /// phase moved and none after; the inverted reading broke one, at the burst's end, and
    /// was printed: 178 bytes of garbage. The other reading gets no such credit: a wrong
    /// reading moves its phase too, and with its own misframing forgiven a square wave at
    /// 22.05 kHz (whose third harmonic aliases to DC) was printed the wrong way round.
    private mutating func decide(into events: inout [ModemEvent]) {
        let a = Self.errors(heldFirst, from: tieGoesToFirst ? first?.framePhaseMovedAt ?? -1 : -1)
        let b = Self.errors(heldSecond, from: -1)
        var choice: Outcome?
        if a < b {
            choice = .first
        } else if b < a {
            choice = .second
        } else if question == .polarity, let fuller = Self.fuller(heldFirst, heldSecond) {
            choice = fuller
        } else if tieGoesToFirst {
            choice = .first
        } else if question == .topBit {
            switch TopBitContent.choice(seven: heldFirst, eight: heldSecond) {
            case .seven?: choice = .first
            case .eight?: choice = .second
            case nil: break
            }
        }
        switch choice {
        case .first?: events.append(contentsOf: heldFirst)
        case .second?: events.append(contentsOf: heldSecond)
        default: choice = .unproven(characters: heldFirst.count { $0.kind == .byte })
        }
        outcome = choice
        heldFirst = []
        heldSecond = []
    }

    /// With as many errors both ways, the reading that frames ``fullerFactor`` times the
    /// other's characters and 4 more, if either does: read inverted, random bytes mostly
    /// fail their stop bits and are dropped without an error (64 characters one way, 3 the
    /// other). Back-to-back text frames about as well both ways, and the tie stands.
    private static func fuller(_ first: [ModemEvent], _ second: [ModemEvent]) -> Outcome? {
        let a = first.count { $0.kind == .byte }
        let b = second.count { $0.kind == .byte }
        if b >= fullerFactor * a + 4 { return .second }
        if a >= fullerFactor * b + 4 { return .first }
        return nil
    }

    /// How many times the other reading's characters the fuller one must frame.
    static let fullerFactor = 2

    /// The errors among `events` from sample `start` on.
    private static func errors(_ events: [ModemEvent], from start: Int64) -> Int {
        events.count { $0.kind != .byte && $0.startSample >= start }
    }
}
