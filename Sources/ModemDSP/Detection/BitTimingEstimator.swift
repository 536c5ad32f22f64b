import RealModule

/// Estimates the bit rate, the two tones and which one is mark of a two-tone (FSK) signal,
/// from a few blocks of its samples.
///
/// Each block is mixed down to a centre between the two tones and smoothed twice: over a
/// period of twice the centre (which removes the mixing image) and over half a period of
/// the tones' difference (which keeps both tones, at plus and minus half the difference,
/// and little else). The upper tone then turns the baseband phasor one way and the lower
/// tone the other: the sign of the turn gives the tone sample by sample, its mean over the
/// middle of each run the tone's frequency. Runs between transitions are whole numbers of
/// bits, so the bit period is the longest one that every run fits (half the bit fits them
/// too; twice the bit fits only the even runs), and the tone that holds the longest run is
/// mark: UART lines idle at mark and every character ends on it.
struct BitTimingEstimator {
    struct Estimate {
        var baud: Double
        /// Mean of cos(2 pi run / period) over the runs: 1 for runs that are exact multiples.
        var fit: Double
        var upper: Double
        var lower: Double
        var markIsUpper: Bool
        /// Each tone's bit length, when they differ (an Arduino's at 126, 315 and 630 baud);
        /// `baud` is then their mean rate, unsnapped.
        var toneBits: ToneBitLengths? = nil
    }

    struct Run {
        var length: Int
        var upper: Bool
        /// Sum of the turn (radians per sample) over the run's middle, and its sample count.
        var turn: Double
        var turnSamples: Int
        /// The run began where the block did: its length is not a whole number of bits.
        var cut: Bool
    }

    let sampleRate: Double
    let center: Double
    let difference: Double

    /// Serial bit rates a measured rate snaps to when within 2.5 %.
    static let standardRates: [Double] = [
        45.45, 50, 75, 100, 110, 126, 150, 200, 300, 315, 600, 630,
        1200, 1225, 2400, 2450, 4800,
    ]

    /// Runs of each tone in `block`, leaving out those cut by the block's edges or by quiet
    /// stretches; adds the baseband magnitude of the loud samples to `envelope`, and counts
    /// as dips the samples of the sound (over 1 % of the mean power) under a quarter of it,
    /// unless the sound stops there (over ``gapSeconds`` under 1 %): a burst's own start and
    /// end, and a phone's echo tail after it, are not dips; two tones beating are.
    func runs(in block: ArraySlice<Float>, envelope: inout (sum: Double, squares: Double, count: Double, dips: Double))
        -> [Run]
    {
        let m1 = max(1, Int((sampleRate / (2 * center)).rounded()))
        let m2 = max(1, Int((sampleRate / (2 * difference)).rounded()))
        let n = block.count
        let settle = m1 + m2 + 1
        guard n > 4 * settle else { return [] }
        // Measured once: both passes over the block read its phasor with the same offset out.
        let offset = Self.offset(of: block)
        let meanMagnitude = meanPower(block, m1, m2, from: settle, offset: offset)
        var result: [Run] = []
        var state: Bool? = nil
        var runStart = -1
        var cut = true
        var middle = MiddleTurn(m2: m2)
        var pendingDips = 0.0
        var gap = 0
        let gapLimit = Int(Self.gapSeconds * sampleRate)
        var z = Baseband(center: center, sampleRate: sampleRate, m1: m1, m2: m2, offset: offset)
        var b = (re: 0.0, im: 0.0)
        var k = 0
        for x in block {
            let a = z.next(x)
            defer {
                b = a
                k += 1
            }
            guard k >= settle else { continue }
            let t = arcTangent2(a.im * b.re - a.re * b.im, a.re * b.re + a.im * b.im)
            middle.add(t, at: k, runStart: runStart)
            let power = a.re * a.re + a.im * a.im
            if power < 0.25 * meanMagnitude {
                if power > 0.01 * meanMagnitude { pendingDips += 1 } else { gap += 1 }
            } else {
                if gap <= gapLimit { envelope.dips += pendingDips }
                pendingDips = 0
                gap = 0
            }
            guard power > 0.1 * meanMagnitude else {
                state = nil
                runStart = -1
                continue
            }
            let magnitude = power.squareRoot()
            envelope.sum += magnitude
            envelope.squares += power
            envelope.count += 1
            let now = t > 0
            guard let s = state else {
                state = now
                // The first run is cut: by the block's start, or by the sound's onset, whose
                // ramp through the smoothing turns the phasor either way.
                runStart = k
                middle.restart()
                cut = true
                continue
            }
            if now != s {
                if runStart >= 0 {
                    // The turn over the run's middle, away from the smoothed transitions.
                    result.append(
                        Run(length: k - runStart, upper: s, turn: middle.sum, turnSamples: middle.count, cut: cut))
                }
                runStart = k
                middle.restart()
                cut = false
                state = now
            }
        }
        return result
    }

    /// cos(2 pi x) for x = k / 1024 (fit scores need no finer steps): the period sweep takes
    /// it for every run at some 900 periods.
    static let turnCosines: [Double] = (0..<1024).map { Double.cos(2 * Double.pi * Double($0) / 1024) }

    /// Silence (under 1 % of the mean power) longer than this ends the sound: 5 ms, longer
    /// than the zero of two tones beating 20 Hz or more apart.
    static let gapSeconds = 0.005

    /// Whether most whole runs of one tone (of either, for nil; at least 4 runs) are one
    /// length of 1.5 bits or more.
    static func isWarble(_ runs: [Run], period: Double, upper: Bool?) -> Bool {
        var lengths = runs.filter { !$0.cut && (upper == nil || $0.upper == upper) && Double($0.length) <= 14 * period }
            .map(\.length)
        guard lengths.count >= 4 else { return false }
        lengths.sort()
        let median = Double(lengths[lengths.count / 2])
        let alike = lengths.count { abs(Double($0) - median) <= max(0.03 * median, 2) }
        return median >= 1.5 * period && Double(alike) >= warbleShare * Double(lengths.count)
    }

    /// Share of runs of one length (1.5 bits or more) from which the signal is a warble.
    static let warbleShare = 0.8

    /// `runs` with transition glitches taken out: a run of at most ``glitchSamples`` (a
    /// sender's phase jump at a tone change turns the phasor the wrong way for a sample or
    /// two) joins the run before it together with the run after it.
    static func mergingGlitches(_ runs: [Run]) -> [Run] {
        var out: [Run] = []
        out.reserveCapacity(runs.count)
        var i = 0
        while i < runs.count {
            let r = runs[i]
            if r.length <= glitchSamples, !r.cut, var last = out.last, !last.cut, i + 1 < runs.count, !runs[i + 1].cut {
                last.length += r.length + runs[i + 1].length
                out[out.count - 1] = last
                i += 2
                continue
            }
            out.append(r)
            i += 1
        }
        return out
    }

    /// Shortest run kept as a bit of its own (the fastest rate, 4800 baud, has 6 samples per
    /// bit even at 29.4 kHz).
    static let glitchSamples = 2

    /// The bit rate (45-4800 baud) that the runs fit best and the tones, or nil with fewer
    /// than 8 runs or no rate that fits.
    ///
    /// `rates` limits the bit rates tried (a check of a known rate needs only it and its
    /// fractions down to a third, to see whether a slower rate fits better).
    func estimate(blocks: [ArraySlice<Float>], rates: ClosedRange<Double> = 45...4_800) -> Estimate? {
        var all: [Run] = []
        var envelope = (sum: 0.0, squares: 0.0, count: 0.0, dips: 0.0)
        for b in blocks { all += Self.mergingGlitches(runs(in: b, envelope: &envelope)) }
        guard all.count >= 8, envelope.count > 0 else { return nil }
        // FSK keeps a constant envelope through its tone changes; two tones at once (a
        // ringback, DTMF) beat down to nothing many times a second, and speech pulses.
        let mean = envelope.sum / envelope.count
        let spread = max(envelope.squares / envelope.count - mean * mean, 0).squareRoot()
        guard spread <= 0.35 * mean, envelope.dips <= 0.08 * envelope.count else { return nil }
        let shortest = sampleRate / min(rates.upperBound, 4_800)
        let longest = sampleRate / max(rates.lowerBound, 45)
        let (best, scores) = Self.periodScores(all, from: shortest, to: longest)
        guard best.fit > 0.3 else { return nil }
        // The longest period fitting almost as well as the best is the bit (shorter ones are
        // its fractions); then the best-fitting period near it.
        var chosen = best
        for s in scores where s.fit >= 0.85 * best.fit && s.period > chosen.period { chosen = s }
        for s in scores where abs(s.period / chosen.period - 1) < 0.03 && s.fit > chosen.fit {
            chosen = (s.period, s.fit)
        }
        let longestRun = all.max { $0.length < $1.length }!
        chosen = Self.pausedBit(all, chosen: chosen, markIsUpper: longestRun.upper, longest: longest) ?? chosen
        // Two tones taking turns at a steady rate (a warbling whistle) fit every fraction of
        // their period. Data has runs of many lengths: when most runs of each tone are one
        // length (within 3 %) of 1.5 bits or more, it is a warble. Per tone, because a
        // warble, like an Arduino's bits, need not give both tones the same time.
        if Self.isWarble(all, period: chosen.period, upper: nil)
            || (Self.isWarble(all, period: chosen.period, upper: true)
                && Self.isWarble(all, period: chosen.period, upper: false))
        {
            return nil
        }
        let (baud, toneBits) = rate(all, period: chosen.period)
        let (upper, lower) = tones(all)
        return Estimate(
            baud: baud, fit: chosen.fit, upper: upper, lower: lower, markIsUpper: longestRun.upper, toneBits: toneBits)
    }

    /// The bit of a UART that pauses between characters, when `chosen` is a fraction of it:
    /// nil when it is not.
    ///
    /// A pause of a fraction of a bit (1.5 stop bits, a byte written at a time) lengthens
    /// only the mark runs that end characters, by any amount, and a half-bit pause makes
    /// half the bit fit every run. Space runs (start bit and zeros, on the character's own
    /// clock) stay whole bits: when at least ``pauseCheckRuns`` of them fit twice or three
    /// times the chosen period (``pauseCheckFit``), no run is under 0.6 of it, and all runs
    /// together do not fit it, the pauses chose the fraction. A sender at the faster rate
    /// passes only with no single-bit run and every space run an even (or triple) number of
    /// bits: one byte repeated, which is ambiguous anyway.
    static func pausedBit(_ all: [Run], chosen: (period: Double, fit: Double), markIsUpper: Bool, longest: Double)
        -> (period: Double, fit: Double)?
    {
        for multiple in [2.0, 3.0] {
            let period = multiple * chosen.period
            guard period <= longest else { return nil }
            // Runs under 0.6 of the multiple (single bits of the faster sender) rule it out, as
            // in the period sweep; a paused sender's runs are all a bit or more.
            let space = fit(all, period: period) { $0.upper != markIsUpper }
            guard space.counted >= pauseCheckRuns, space.tooShort == 0, space.fit >= pauseCheckFit else { continue }
            let every = fit(all, period: period) { _ in true }
            if every.tooShort * 10 <= all.count && every.fit < 0.85 * chosen.fit { return (period, space.fit) }
        }
        return nil
    }

    /// Space runs a pause check needs: a dozen, so that data cannot fit a multiple by chance.
    static let pauseCheckRuns = 12
    /// How well the space runs must fit the multiple: whole bits within a tenth of one.
    static let pauseCheckFit = 0.9

    /// Mean of cos(2 pi run / period) over the uncut runs `include` accepts, of 0.6 to 14
    /// periods (shorter ones cannot be bits at this rate; longer ones, idle line and
    /// preambles, say little about the period), how many those are, and how many were
    /// shorter.
    static func fit(_ all: [Run], period: Double, include: (Run) -> Bool) -> (
        fit: Double, counted: Int, tooShort: Int
    ) {
        let cosines = turnCosines
        var s = 0.0
        var counted = 0
        var tooShort = 0
        for r in all where !r.cut && include(r) {
            let bits = Double(r.length) / period
            if bits < 0.6 {
                tooShort += 1
                continue
            }
            if bits > 14 { continue }
            s += cosines[Int((bits - bits.rounded(.down)) * 1024) & 1023]
            counted += 1
        }
        return (counted > 0 ? s / Double(counted) : -1, counted, tooShort)
    }

    /// The fit of every period from `shortest` to `longest` (0.5 % apart), and the best.
    static func periodScores(_ all: [Run], from shortest: Double, to longest: Double) -> (
        best: (period: Double, fit: Double), scores: [(period: Double, fit: Double)]
    ) {
        var best = (period: 0.0, fit: -Double.infinity)
        var scores: [(period: Double, fit: Double)] = []
        var period = shortest
        while period <= longest {
            let every = Self.fit(all, period: period) { _ in true }
            let fit = every.tooShort > all.count / 10 || every.counted < 8 ? -1 : every.fit
            scores.append((period, fit))
            if fit > best.fit { best = (period, fit) }
            period *= 1.005
        }
        return (best, scores)
    }

    /// The bit rate of runs whose bit is `period` samples: each tone's own bit length when
    /// they differ, else the period's rate snapped to a standard one within 2.5 %.
    func rate(_ all: [Run], period: Double) -> (baud: Double, toneBits: ToneBitLengths?) {
        var baud = sampleRate / period
        var toneBits: ToneBitLengths?
        if let own = Self.toneBitPeriods(all, around: period),
            abs(own.upper / own.lower - 1) > Self.unequalBitsFraction,
            abs(own.upper - own.lower) > Self.unequalBitsSamples
        {
            // Unequal bits: the demodulator runs at their mean, which keeps each character's
            // bits within +-3 % of its clock and resynchronises on every start bit.
            toneBits = ToneBitLengths(upper: own.upper / sampleRate, lower: own.lower / sampleRate)
            baud = 2 * sampleRate / (own.upper + own.lower)
        } else if let standard = Self.standardRates.min(by: { abs($0 / baud - 1) < abs($1 / baud - 1) }),
            abs(standard / baud - 1) <= 0.025
        {
            baud = standard
        }
        return (baud, toneBits)
    }

    /// The two tones, from the mean turn of each tone's runs (half the expected difference
    /// either side of the centre for a tone with no run measured).
    func tones(_ all: [Run]) -> (upper: Double, lower: Double) {
        var upTurn = 0.0
        var upCount = 0
        var downTurn = 0.0
        var downCount = 0
        for r in all {
            if r.upper {
                upTurn += r.turn
                upCount += r.turnSamples
            } else {
                downTurn += r.turn
                downCount += r.turnSamples
            }
        }
        let hzPerRadian = sampleRate / (2 * Double.pi)
        let upper = center + (upCount > 0 ? upTurn / Double(upCount) * hzPerRadian : difference / 2)
        let lower = center + (downCount > 0 ? downTurn / Double(downCount) * hzPerRadian : -difference / 2)
        return (upper, lower)
    }
}
