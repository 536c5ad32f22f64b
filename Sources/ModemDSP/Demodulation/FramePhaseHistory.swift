/// The line bits of a burst's last characters sent back to back, and the frame phase they
/// prove: where in the bit stream characters really start.
///
/// Why it is needed: characters sent back to back leave no idle line between them, and 8N1
/// text read a bit early (or late) is itself mostly valid 8N1. Lower-case ASCII has a 1 in
/// its seventh bit, so a reading that takes the sixth data bit for the stop bit frames it
/// cleanly and breaks only on spaces, digits and capitals. In noise (Eb/N0 10 dB) a burst
/// whose first character was found a bit off stayed on that wrong phase to its end:
/// measured, 28 of 64 text bursts came out more than 30 % wrong (framing errors at every
/// space), where minimodem read them with about 10 % of bytes wrong.
///
/// The evidence is the start and stop bits of every character: on the true phase each held
/// one (but for bit errors), on a wrong phase only those the text happens to put there. The
/// history is one run of back-to-back characters (an idle bit or a lost character starts it
/// again: after idle line a start bit shows the phase by itself). Fixed size, no allocation.
struct FramePhaseHistory: Sendable {
    /// Wire bits of the last ``capacity`` characters (bit k = frame bit k, 1 = mark), in a
    /// ring whose oldest character is at `head`.
    private var patterns = SIMD16<UInt16>()
    private var head = 0
    /// Characters held, back to back, at most ``capacity``.
    private(set) var count = 0

    static let capacity = 16

    mutating func clear() {
        head = 0
        count = 0
    }

    /// Where the last character started (`start`, segments) against where the clock expected
    /// it: half a bit or more off, it was not back to back with the one before, and the run
    /// starts again from it.
    mutating func noteStart(_ start: Double, expected: Double, step: Double) {
        if abs(start - expected) > step / 2 { keepLast() }
    }

    /// Keeps only the last character: it did not follow the one before directly.
    private mutating func keepLast() {
        guard count > 1 else { return }
        head = (head &+ count &- 1) % Self.capacity
        count = 1
    }

    /// Appends one character's wire bits (bit k = frame bit k, 1 = mark).
    mutating func push(_ pattern: UInt16) {
        if count < Self.capacity {
            patterns[(head &+ count) % Self.capacity] = pattern
            count &+= 1
        } else {
            patterns[head] = pattern
            head = (head &+ 1) % Self.capacity
        }
    }

    /// Bit `i` of the run (0 = the oldest character's start bit).
    private func bit(_ i: Int, frameBits: Int) -> Bool {
        let character = patterns[(head &+ i / frameBits) % Self.capacity]
        return character >> UInt16(i % frameBits) & 1 == 1
    }

    /// Frames starting `phase` bits after each held character's start whose start bit is
    /// mark or whose stop bits are not all mark, over the first `count - 1` of them (the
    /// last one at a phase other than 0 is not all in yet).
    private func violations(phase: Int, frameBits: Int, stopBits: Int) -> Int {
        var bad = 0
        for j in 0..<(count - 1) {
            let start = phase + j * frameBits
            var broken = bit(start, frameBits: frameBits)
            for s in (frameBits - stopBits)..<frameBits where !bit(start + s, frameBits: frameBits) { broken = true }
            if broken { bad += 1 }
        }
        return bad
    }

    /// The phase, in bits after the last character's start (1 to `frameBits - 1`), at which
    /// the held characters frame clearly better than where they were read, or nil.
    ///
    /// Clearly better: over at least ``FSKTuning/framePhaseCharacters`` characters, the
    /// phase read broke ``FSKTuning/framePhaseErrors`` frames or more and the other breaks
    /// at most one in eight (the reasons for the numbers are at the constants). A burst read
    /// on its true phase breaks a frame only by a bit error in a start or stop bit; random
    /// bytes on a wrong phase break three frames in four, and text read a bit off about one
    /// in five.
    func betterPhase(frameBits: Int, stopBits: Int) -> Int? {
        guard count >= FSKTuning.framePhaseCharacters else { return nil }
        let frames = count - 1
        guard violations(phase: 0, frameBits: frameBits, stopBits: stopBits) >= FSKTuning.framePhaseErrors
        else { return nil }
        var best: (phase: Int, bad: Int)?
        for phase in 1..<frameBits {
            let bad = violations(phase: phase, frameBits: frameBits, stopBits: stopBits)
            if bad < (best?.bad ?? Int.max) { best = (phase, bad) }
        }
        guard let best, 8 * best.bad <= frames else { return nil }
        return best.phase
    }
}
