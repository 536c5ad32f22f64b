/// A board's comparator against half its supply (the AC-coupled sample's sign) feeding a
/// capture timer: each crossing dated between the two samples it falls between, then
/// floored to whole ticks of `timerHz`, as a capture register does. Shared by the HiJack
/// board receiver models of every generation.
struct ComparatorCapture {
    let sampleRate: Double
    let timerHz: Double
    private var previous: Float = 0
    private var index: Int64 = 0

    init(sampleRate: Double, timerHz: Double) {
        self.sampleRate = sampleRate
        self.timerHz = timerHz
    }

    /// Feeds one sample (non-finite counts as 0); returns the crossing it completes, if any:
    /// its tick and whether the line went high.
    mutating func next(_ x: Float) -> (tick: Int64, rising: Bool)? {
        let v = x.isFinite ? x : 0
        defer {
            previous = v
            index += 1
        }
        guard (previous < 0) != (v < 0) else { return nil }
        let fraction = previous == v ? 0 : Double(previous / (previous - v))
        let seconds = (Double(index - 1) + fraction) / sampleRate
        return (Int64((seconds * timerHz).rounded(.down)), v >= 0)
    }
}
