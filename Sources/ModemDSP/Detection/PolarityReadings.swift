/// One burst read with mark and space both ways round, its characters held until the burst
/// itself proves which reading is right.
///
/// Why: a tone pair of no known modem (``ToneConvention``) does not say which tone is mark,
/// and the opening of a burst cannot either: 8N1 text back to back reads as valid 8N1
/// when inverted and shifted by a bit. What differs is the line around the characters:
/// every asynchronous sender idles on mark before its first start bit (any preamble) and
/// ends on a stop bit (mark), so the inverted reading meets a space it cannot frame at
/// one end or the other (a start bit the burst's end cuts, a preamble read as a break).
/// Over the whole burst the wrong reading has more errors; the right one is printed.
///
/// Edge cases:
/// - equal errors both ways (a burst with no preamble and no room after its last stop
///   bit, or noise that hits both readings alike) prove nothing: nothing is printed
///   (``Outcome/unproven(characters:)``);
/// - a burst that goes on past ``holdLimit`` characters is decided there if its readings
///   differ by then (the rest streams), else abandoned as unproven: memory stays bounded;
/// - the cost is two demodulators for such bursts only, and their characters come out
///   when the burst ends instead of as they are decoded.
struct PolarityReadings: Sendable {
    /// Which reading the evidence chose.
    enum Outcome: Sendable, Equatable {
        /// Mark and space as the analysis named them.
        case measured
        /// The other way round.
        case swapped
        /// Both readings fit equally: nothing printed; `characters` is how many the
        /// measured reading held.
        case unproven(characters: Int)
    }

    /// Characters a reading holds before the burst is decided anyway (33 s at 1225 baud).
    static let holdLimit = 4096

    private var measured: FSKDemodulator?
    private var swapped: FSKDemodulator?
    private var heldMeasured: [ModemEvent] = []
    private var heldSwapped: [ModemEvent] = []
    private(set) var outcome: Outcome?

    init(_ measured: FSKDemodulator, _ swapped: FSKDemodulator) {
        self.measured = measured
        self.swapped = swapped
    }

    var isInBurst: Bool { (measured?.isInBurst ?? false) || (swapped?.isInBurst ?? false) }

    mutating func process<S: RingSample>(_ samples: UnsafeBufferPointer<S>, into events: inout [ModemEvent]) {
        switch outcome {
        case .measured?: S.feed(samples, to: &measured!, into: &events)
        case .swapped?: S.feed(samples, to: &swapped!, into: &events)
        case .unproven?: return
        case nil:
            S.feed(samples, to: &measured!, into: &heldMeasured)
            S.feed(samples, to: &swapped!, into: &heldSwapped)
            if max(heldMeasured.count, heldSwapped.count) >= Self.holdLimit { decide(into: &events) }
        }
    }

    mutating func flush(into events: inout [ModemEvent]) {
        switch outcome {
        case .measured?: measured!.flush(into: &events)
        case .swapped?: swapped!.flush(into: &events)
        case .unproven?: return
        case nil:
            measured!.flush(into: &heldMeasured)
            swapped!.flush(into: &heldSwapped)
            decide(into: &events)
        }
    }

    /// Chooses the reading with fewer errors and hands out what it held; with as many
    /// errors both ways, nothing.
    private mutating func decide(into events: inout [ModemEvent]) {
        let a = heldMeasured.count { $0.kind != .byte }
        let b = heldSwapped.count { $0.kind != .byte }
        if a < b {
            outcome = .measured
            events.append(contentsOf: heldMeasured)
        } else if b < a {
            outcome = .swapped
            events.append(contentsOf: heldSwapped)
        } else {
            outcome = .unproven(characters: heldMeasured.count { $0.kind == .byte })
        }
        heldMeasured = []
        heldSwapped = []
    }
}
