/// Holds back the first characters of a burst until the burst proves to be a modem.
///
/// Speech, above all its sibilants and the pitch pulses of voiced sounds, puts enough
/// energy near both tones for a character to clear the squelch now and then, and once one
/// has, the burst's bit clock vouches for the next ones. What speech does not do is sound
/// like two steady tones, one at a time (see ``CharacterStructure``): a modem's characters
/// keep one envelope, leave the other tone's filter at the noise floor, and all measure the
/// same mark and space frequencies (within the estimator's noise) at one level, while
/// speech's bits pulse, ring in both filters and wander by hundreds of hertz. So a burst is
/// confirmed either
/// * at once, by a first character too clear for anything but a modem (Eb/N0 at least
///   ``clearEbN0Ratio``, both tones measured and near the profile's), or
/// * by ``required`` consecutive good characters, each with tones near the profile's,
///   whose measured tones agree to within ``spreadLimit`` (pooled standard deviation),
///   whose levels are within 6 dB, and whose mean structure is a modem's.
///
/// Until then its characters wait here (framing and parity errors, and characters off the
/// profile's tones, are dropped); afterwards they pass straight through. Characters that
/// left the window before the run agreed were the confirmed burst's own: they are reported
/// as framing errors, one each, not dropped in silence; so were the characters that a
/// damaged or off-tone one started the count again with, when they ran back to back into
/// the run that agreed at its level (``dropped``). A burst that ends
/// unconfirmed is dropped whole: weak bursts of one or two characters are lost, which is the
/// price of not printing speech. A burst that resumes a confirmed one at its level (a lost
/// clock, a sender restarting) stays confirmed. Memory is fixed: ``required`` characters.
struct BurstConfirmation: Sendable {
    /// Consecutive consistent characters that confirm a weak burst.
    let required: Int
    /// Largest pooled standard deviation (Hz) of the measured tones over those characters.
    let spreadLimit: Double
    /// Eb/N0 (linear) above which a first character confirms its burst by itself.
    let clearEbN0Ratio: Double
    private var pending: [(event: ModemEvent, structure: CharacterStructure)] = []
    /// Characters of the current run that left the window unconfirmed, and the samples they
    /// spanned.
    private var slid = (count: 0, start: Int64(0), end: Int64(0))
    /// Characters of the current stretch that a damaged or off-tone character took out of
    /// the count (with those that waited or had slid), the samples they spanned, and their
    /// summed signal power. Cleared when a character follows them after idle line: only
    /// characters back to back with the run that agrees are that run's burst.
    private var dropped = (count: 0, start: Int64(0), end: Int64(0), power: 0.0)
    /// Where the last character of the unconfirmed burst ended.
    private var lastEnd = Int64(0)
    /// Whether ``dropped`` characters are reported. Detection's trial decodes turn it off:
    /// they score a reading by its errors on the stretch it reads, on which the characters
    /// a noisy opening dropped say nothing about the format or tones tried.
    var reportsDropped = true
    /// True once the current (or last) burst is confirmed.
    private(set) var confirmed = false

    init(required: Int, spreadLimit: Double, clearEbN0Ratio: Double) {
        self.required = max(1, required)
        self.spreadLimit = spreadLimit
        self.clearEbN0Ratio = clearEbN0Ratio
        pending.reserveCapacity(self.required)
    }

    /// Starts a burst at its first character; `resuming` when that character continues the
    /// last burst (same level, moments later).
    mutating func beginBurst(resuming: Bool) {
        pending.removeAll(keepingCapacity: true)
        slid.count = 0
        // A burst resumed moments later at the same level keeps what the last one dropped
        // (``endBurst()``): back to back with its first character, they were its own.
        if !resuming { dropped.count = 0 }
        confirmed = confirmed && resuming
    }

    /// Passes `event` on to `events` if its burst is confirmed (releasing what waited, with
    /// `decidedAt` set to `now`), holds it, or drops it. `plausible` says whether the
    /// event's measured tones are near the profile's: a character of an unconfirmed burst
    /// that is not starts the count again.
    mutating func admit(
        _ event: ModemEvent, plausible: Bool, structure: CharacterStructure, now: Int64,
        into events: inout [ModemEvent]
    ) {
        if confirmed {
            events.append(event)
            return
        }
        if dropped.count > 0 && !Self.adjoins(lastEnd, event.startSample, event) { dropped.count = 0 }
        // A dropped character that this one overlaps by half a character or more was a
        // misaligned reading of it (the one that ended a burst it resumes), not one of its own.
        if dropped.count > 0 && dropped.end - event.startSample >= (event.endSample - event.startSample) / 2 {
            dropped.power -= dropped.power / Double(dropped.count)
            dropped.count -= 1
            dropped.end = event.startSample
        }
        lastEnd = event.endSample
        guard event.kind == .byte, plausible else {
            drop(event)
            return
        }
        let m = Self.metrics(event)
        if pending.isEmpty && m.ebN0Ratio >= clearEbN0Ratio
            && m.markFrequency.isFinite && m.spaceFrequency.isFinite
        {
            confirmed = true
            reportDropped(level: m.signalPower, now: now, into: &events)
            events.append(event)
            return
        }
        if pending.count == required { slide() }
        pending.append((event, structure))
        guard pending.count == required, agree() else { return }
        confirmed = true
        reportDropped(
            level: pending.lazy.map { Self.metrics($0.event).signalPower }.min() ?? 0, now: now, into: &events)
        reportSlid(now: now, into: &events)
        for var p in pending {
            p.event.decidedAt = now
            events.append(p.event)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The FSK measurements of an event (the demodulator only makes FSK events).
    private static func metrics(_ event: ModemEvent) -> FSKCharacterMetrics {
        event.fsk ?? .unmeasured
    }

    /// The burst ended: whatever still waits was not confirmed and is dropped, into
    /// ``dropped`` (a burst that resumes it may yet confirm them as its own).
    mutating func endBurst() {
        if let last = pending.popLast() { drop(last.event) }
        pending.removeAll(keepingCapacity: true)
        slid.count = 0
    }

    /// Characters the demodulator found missed before the burst's first one (its look
    /// back from it): `count` of them from sample `start` to `end`, where that character
    /// starts, at signal power `power` each. Reported with the ``dropped`` ones once the
    /// burst is confirmed.
    mutating func lostBefore(_ count: Int, from start: Int64, to end: Int64, power: Double) {
        guard count > 0 else { return }
        dropped = (count, start, end, power * Double(count))
        lastEnd = end
    }

    /// A damaged or off-tone character starts the count again: it joins ``dropped``, with
    /// the characters that waited (and had slid out of the window) back to back before it.
    private mutating func drop(_ event: ModemEvent) {
        var start = event.startSample
        var count = 1
        var power = Self.metrics(event).signalPower
        var adjoining = true
        for p in pending.reversed() {
            guard Self.adjoins(p.event.endSample, start, event) else {
                adjoining = false
                break
            }
            (start, count) = (p.event.startSample, count + 1)
            power += Self.metrics(p.event).signalPower
        }
        // Slid characters passed every test but agreement: count them at the run's level.
        if adjoining, slid.count > 0, let first = pending.first, Self.adjoins(slid.end, start, event) {
            power += Double(slid.count) * Self.metrics(first.event).signalPower
            (start, count) = (slid.start, count + slid.count)
        } else if slid.count > 0 {
            adjoining = false
        }
        // What was dropped before ran back to back into all of this (admit cleared it
        // otherwise): one stretch.
        if adjoining && dropped.count > 0 {
            dropped.count += count
            dropped.power += power
        } else {
            dropped = (count, start, event.endSample, power)
        }
        dropped.end = event.endSample
        pending.removeAll(keepingCapacity: true)
        slid.count = 0
    }

    /// True when a character starting at `start` follows one that ended at `end` with no
    /// more than a quarter of `event`'s length (2.5 bits in 8N1) of idle line between them.
    private static func adjoins(_ end: Int64, _ start: Int64, _ event: ModemEvent) -> Bool {
        start - end <= (event.endSample - event.startSample) / 4
    }

    /// The window is full and has not agreed: its oldest character leaves it.
    private mutating func slide() {
        let first = pending.removeFirst().event
        if slid.count == 0 { slid.start = first.startSample }
        slid.end = first.endSample
        slid.count += 1
    }

    /// A framing error for each character that left the window of the run that has just
    /// agreed. They were on the burst's clock and consistent characters by every other
    /// test (a square wave at 22.05 kHz, whose space's third harmonic aliases onto mark,
    /// lost its first 5 characters unreported).
    private mutating func reportSlid(now: Int64, into events: inout [ModemEvent]) {
        Self.reportLost(slid.count, from: slid.start, to: slid.end, now: now, into: &events)
        slid.count = 0
    }

    /// Framing errors for the ``dropped`` characters, once their burst is confirmed at
    /// `level` (the lowest signal power of the characters that confirmed it), when they
    /// averaged a quarter of it or more (the 6 dB of ``agree()``): on the burst's clock,
    /// back to back with it and at its level, they were its own characters (a square wave
    /// at 16 kHz, whose space's fifth harmonic aliases next to mark, lost its first 5
    /// characters unreported: their tones measured off the profile's). Weaker ones were the
    /// noise before it.
    private mutating func reportDropped(level: Double, now: Int64, into events: inout [ModemEvent]) {
        defer { dropped.count = 0 }
        guard reportsDropped, dropped.count > 0, dropped.power >= 0.25 * level * Double(dropped.count) else { return }
        Self.reportLost(dropped.count, from: dropped.start, to: dropped.end, now: now, into: &events)
    }

    /// `count` framing errors spread evenly over the samples from `start` to `end`
    /// (none when `count` is 0), decided `now`.
    private static func reportLost(
        _ count: Int, from start: Int64, to end: Int64, now: Int64, into events: inout [ModemEvent]
    ) {
        guard count > 0 else { return }
        let each = (end - start) / Int64(count)
        for i in 0..<Int64(count) {
            let first = start + i * each
            events.append(.lost(from: first, to: first + each, decidedAt: now))
        }
    }

    /// True when the pending characters measure the same tones at the same level and, on
    /// average, have a modem's structure.
    private func agree() -> Bool {
        var lowest = Double.infinity
        var highest = 0.0
        var markSum = 0.0
        var markSquares = 0.0
        var marks = 0.0
        var spaceSum = 0.0
        var spaceSquares = 0.0
        var spaces = 0.0
        var crossTalk = 0.0
        var envelope = 0.0
        for (event, s) in pending {
            let e = Self.metrics(event)
            lowest = min(lowest, e.signalPower)
            highest = max(highest, e.signalPower)
            crossTalk += s.crossTalk
            envelope += s.envelopeVariation
            if e.markFrequency.isFinite {
                markSum += e.markFrequency
                markSquares += e.markFrequency * e.markFrequency
                marks += 1
            }
            if e.spaceFrequency.isFinite {
                spaceSum += e.spaceFrequency
                spaceSquares += e.spaceFrequency * e.spaceFrequency
                spaces += 1
            }
        }
        let n = Double(pending.count)
        guard highest <= 4 * lowest, marks >= 2, spaces >= 2,
            crossTalk <= n, envelope <= n
        else { return false }
        // Sums of squared deviations from each tone's mean, pooled over both tones.
        let deviations = (markSquares - markSum * markSum / marks) + (spaceSquares - spaceSum * spaceSum / spaces)
        let variance = max(deviations, 0) / (marks + spaces - 2)
        return variance <= spreadLimit * spreadLimit
    }
}

/// Two measures of how much a character sounds like binary FSK in white noise, each as a
/// fraction of what a modem may show at the character's Eb/N0 (1 = the limit).
///
/// * ``crossTalk``: the energy in the losing tone's filter over the winning tone's, per
///   bit. In FSK the losing filter holds only noise, about 1 / (1 + Eb/N0) of the winner;
///   speech rings in both filters at once. Allowed: 1.6 / (1 + Eb/N0), and never less than
///   0.06 (a clean sender's own leakage: an off-frequency tone, square-wave harmonics).
/// * ``envelopeVariation``: the coefficient of variation of the winning energy across the
///   character's bits, about the mean of its mark bits and of its space bits (a sender off
///   frequency correlates at two levels). FSK has a constant envelope, so only noise moves it (about
///   1.3 / sqrt(Eb/N0)); speech pulses with the voice's pitch. Allowed: 2 / sqrt(Eb/N0),
///   and never less than 0.3.
///
/// Measured on 5 minutes of synthetic speech and on 1225-baud FSK at -2 and 0 dB full-band
/// SNR: scaled by Eb/N0 as above, the modem's characters average 1.0 and 1.3 (99 % of
/// single characters below 1.8 and 2.3), speech's 2.4 and 2.6.
struct CharacterStructure: Sendable {
    var crossTalk: Double
    var envelopeVariation: Double

    /// From a character's sums over its bits: the winning tone's energy, the losing tone's
    /// energy (less the steady leakage of correlated tones), the character's Eb/N0
    /// (linear), what a clean character of these tones leaks at its mark-space changes
    /// (``FSKDemodulator/cleanCrossTalk(configuration:segmentLength:window:span:toneLeakage:)``,
    /// allowed on top of the noise's share), and the winning energy's sum, sum of squares
    /// and count over its mark bits, and its sum of squares over its space bits.
    init(
        frameBits: Int, winning: Double, losing: Double, ebN0Ratio: Double, ownCrossTalk: Double = 0,
        mark: (sum: Double, squares: Double, count: Double), spaceSquares: Double
    ) {
        guard winning > 0, ebN0Ratio > 0 else {
            crossTalk = .infinity
            envelopeVariation = .infinity
            return
        }
        let n = Double(frameBits)
        // Spread about each tone's own mean: a sender whose tones sit at different
        // distances from the correlators' is steady on each, at two levels.
        let spaceSum = winning - mark.sum
        let spaces = n - mark.count
        var deviations = 0.0
        if mark.count > 0 { deviations += mark.squares - mark.sum * mark.sum / mark.count }
        if spaces > 0 { deviations += spaceSquares - spaceSum * spaceSum / spaces }
        let variance = max(deviations, 0) / max(n - 2, 1)
        crossTalk = losing / winning / (max(1.6 / (1 + ebN0Ratio), 0.06) + ownCrossTalk)
        envelopeVariation = variance.squareRoot() / (winning / n) / max(2 / ebN0Ratio.squareRoot(), 0.3)
    }
}
