/// The live suite's one retry rule.
///
/// A sound server on a loaded two-core VM drops a few milliseconds of a long transfer now
/// and then (PipeWire did in CI passes: a 2,048-byte burst split in two with 3 framing
/// errors; one bridge's 2,048 bytes arrived as two bursts with 4). That is the environment,
/// not the modem; what the modem owes is to say so. So a transfer runs once more only when
/// the first lost bytes that its receivers reported (``LoopbackTests/reportsLoss(_:)`` on
/// their -v lines): a loss nobody reported fails at once.
enum ReportedLossRetry {
    /// Runs `attempt(0)` and, when its result is not `exact` but `reported` says the
    /// receivers reported the loss, `attempt(1)`; returns the last result.
    static func run<T>(
        _ label: String, exact: (T) -> Bool, reported: (T) -> Bool, attempt: (Int) throws -> T
    ) rethrows -> T {
        let first = try attempt(0)
        guard !exact(first), reported(first) else { return first }
        print("\(label): the first run lost bytes its receivers reported; once more")
        return try attempt(1)
    }
}
