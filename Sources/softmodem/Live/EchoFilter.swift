/// Recognises our own transmission coming back: bytes we sent, in order, before a deadline.
///
/// A received byte that matches the next expected one (or one of the next few, when the
/// echo lost a character) is echo; anything else is the other side talking.
struct EchoFilter {
    private var expected: [UInt8] = []
    private var next = 0
    private var deadline = 0.0
    static let lookahead = 4

    mutating func expect(_ bytes: ArraySlice<UInt8>, until: Double) {
        if next > 4096 {
            expected.removeFirst(next)
            next = 0
        }
        expected.append(contentsOf: bytes)
        deadline = until
    }

    /// Keeps the current expectation alive until at least `until`.
    mutating func extend(until: Double) {
        if !expected.isEmpty { deadline = max(deadline, until) }
    }

    mutating func isEcho(_ byte: UInt8, at now: Double) -> Bool {
        guard now < deadline else {
            expected.removeAll()
            next = 0
            return false
        }
        for k in next..<min(expected.count, next + Self.lookahead) where expected[k] == byte {
            next = k + 1
            return true
        }
        return false
    }
}
