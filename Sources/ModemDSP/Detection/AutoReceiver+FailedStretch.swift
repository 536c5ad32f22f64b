// A burst under the noise that failed its first analyses: decoded from where it began.

extension AutoReceiver {
    /// Forgets the failed stretches (``failedStretch``) once ``failedStretchMisses`` blocks
    /// in a row (the one just ended, of mean `power`, the last) hold neither their level
    /// (``weakLevel`` times the quiet `floor`) nor one of the weak profiles' tones: their
    /// signal has ended. One such block is not enough: under the noise a modem's tone shows
    /// in most blocks, not all.
    ///
    /// Why: a modem under the noise is gathered, fails its analysis (one broken character
    /// in a trial is enough), is ignored and gathered again until a stretch of it reads
    /// clean. Decoded from that stretch alone, everything before it was lost in silence: a
    /// Bell 103 burst at Eb/N0 13 dB printed its last 50 of 120 bytes with exit status 0.
    /// Decoded from the first failed stretch (as much of it as the ring still holds), it
    /// is whole, or says what it lost (``reportLost(from:to:into:)``).
    mutating func continuesFailedStretch(power: Double, floor: Double) {
        guard let stretch = failedStretch else { return }
        let misses = Self.misses(after: stretch.misses, holds: power > Self.weakLevel * floor || lastBlockIsTonal())
        failedStretch = misses.map { (stretch.start, $0) }
    }

    /// Blocks in a row that held neither a stretch's level nor its tone, after one more
    /// block (`holds`: it held one of them) following `misses` such blocks; nil once they
    /// reach ``failedStretchMisses`` and end the stretch. The one rule for following a
    /// stretch forwards (``continuesFailedStretch(power:floor:)``) and back
    /// (``regathersBlindStretch(from:into:)``).
    static func misses(after misses: Int, holds: Bool) -> Int? {
        if holds { return 0 }
        return misses + 1 < failedStretchMisses ? misses + 1 : nil
    }

    /// Blocks in a row without a failed stretch's level or tone that end it. Why 2: see
    /// ``continuesFailedStretch(power:floor:)``; a burst's end is two quiet blocks too.
    static let failedStretchMisses = 2

    /// One framing error for the samples from `start` to `end`: the opening of a burst
    /// that failed stretches held, which the ring no longer holds (``failedStretch``). Its
    /// characters are lost; the decode must say so, not print the rest as if whole.
    func reportLost(from start: Int64, to end: Int64, into events: inout [ModemEvent]) {
        events.append(.lost(from: start, to: end, decidedAt: samplesConsumed))
    }
}
