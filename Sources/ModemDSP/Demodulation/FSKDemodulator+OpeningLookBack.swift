// A burst's first character is checked for characters before it that the first-character
// search passed over: space at the burst's level there is a character the idle line cannot
// explain.

extension FSKDemodulator {
    /// Unless a burst is being followed, one opens with the character at segment `a` (its
    /// tone power `power`, its event's `signalPower`): the confirmation starts counting,
    /// and a burst that does not resume one moments ago (`resuming`) is looked back from
    /// (``lookBack(from:step:power:signalPower:)``).
    mutating func openBurst(_ resuming: Bool, at a: Double, step: Double, power: Double, _ signalPower: Double) {
        if case .following = mode { return }
        confirmation.beginBurst(resuming: resuming)
        if !resuming { lookBack(from: a, step: step, power: power, signalPower: signalPower) }
    }

    /// Looks back from a burst's first character (starting at segment `a`, bits `step`
    /// segments apart, its tone power `power` per sample) over the bits the ring still
    /// holds, for as long as they stay at the burst's level (either tone, within
    /// ``FSKTuning/lostOpeningLevel`` of `power`). When ``FSKTuning/lostOpeningSpaces`` of
    /// them or more are space, characters were there that the search did not read (their
    /// tones failed an opening character's tests: noise, a sender's harmonics): they are
    /// handed to the confirmation as lost (``BurstConfirmation/lostBefore(_:from:to:power:)``),
    /// one per character's length from the earliest space bit, and reported once the
    /// burst is confirmed. An idle preamble is all mark; noise before the burst is not at
    /// its level, and ends the look.
    ///
    /// The bit just before `a` is not read: a start found a fraction of a bit late leaves
    /// part of its start bit there.
    mutating func lookBack(from a: Double, step: Double, power: Double, signalPower: Double) {
        let oldest = Double(ringEnd - ringMask) + 1
        let floor = power * FSKTuning.lostOpeningLevel
        var hi = a - step
        var spaces = 0
        var earliest = a
        while hi - step >= oldest {
            let w = windowSums(roundToInt(hi - step), roundToInt(hi))
            let difference = (w.spaceEnergy - w.markEnergy) * 2 * w.inverseSamples * w.inverseSamples
            guard abs(difference) >= floor else { break }
            if difference > 0 {
                spaces += 1
                earliest = hi - step
            }
            hi -= step
        }
        guard spaces >= FSKTuning.lostOpeningSpaces else { return }
        let characters = ((a - earliest) / (Double(frameBits) * step)).rounded(.up)
        let b = Double(segmentLength)
        confirmation.lostBefore(
            Int(characters), from: Int64((earliest * b).rounded()), to: Int64((a * b).rounded()),
            power: signalPower)
    }
}
