/// Recognises our own transmission coming back: bytes we sent, in order, before a deadline.
///
/// A received byte that matches the next expected one (or one of the next few, when the
/// echo lost a character) is echo; anything else is the other side talking. When the echo
/// lost more than that (a glitch in a sound server's graph can take a dozen characters), two
/// unmatched bytes in a row that stand side by side further on in what we sent put the
/// filter back in step there: without it, the whole rest of a long burst came through.
public struct EchoFilter {
    private var expected: [UInt8] = []
    private var next = 0
    private var deadline = 0.0
    /// The last byte that did not match, if the one before this call did not.
    private var unmatched: UInt8?
    /// Expected bytes a heard byte is compared with: an echo that lost up to three stays in step.
    public static let lookahead = 4
    /// How far ahead a pair may put the filter back in step: two bytes of the other side's
    /// match a pair in this window by chance once in about 65536 / 64 = 1000 pairs, and the
    /// longest loss seen (PipeWire under load) was 14 characters.
    public static let resyncWindow = 64

    /// A filter expecting nothing: every byte is the other side's until ``expect(_:until:)``.
    public init() {}

    /// Expects `bytes` back, after those already expected, until `until` (clock seconds).
    public mutating func expect(_ bytes: ArraySlice<UInt8>, until: Double) {
        if next > 4096 {
            expected.removeFirst(next)
            next = 0
        }
        expected.append(contentsOf: bytes)
        deadline = until
    }

    /// Keeps the current expectation alive until at least `until`.
    public mutating func extend(until: Double) {
        if !expected.isEmpty { deadline = max(deadline, until) }
    }

    /// True when `byte`, heard at `now`, is the next of ours (or one of the next few).
    public mutating func isEcho(_ byte: UInt8, at now: Double) -> Bool {
        guard now < deadline else {
            expected.removeAll()
            next = 0
            unmatched = nil
            return false
        }
        for k in next..<min(expected.count, next + Self.lookahead) where expected[k] == byte {
            next = k + 1
            unmatched = nil
            return true
        }
        if let previous = unmatched {
            let end = min(expected.count, next + Self.resyncWindow)
            if next + 1 < end {
                for k in (next + 1)..<end where expected[k] == byte && expected[k - 1] == previous {
                    next = k + 1
                    unmatched = nil
                    return true
                }
            }
        }
        unmatched = byte
        return false
    }
}
