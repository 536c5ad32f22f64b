/// Tracks the phase of one tone's correlations across a burst, so bits can be decided
/// coherently.
///
/// Why this works: SoftModem senders are phase-continuous and put whole tone cycles in each
/// bit (4 and 6 at 1225 baud), so against a fixed time reference every mark bit of a burst
/// correlates with the same phase, and so does every space bit. A sender slightly off
/// frequency (the iPhone app's 7300 Hz mark) makes that phase turn by a fixed amount per
/// bit, which the tracker learns as `drift`. Knowing the phase, a receiver compares the
/// in-phase parts of the two correlations instead of their energies: about 1 dB better.
///
/// The tracker only claims a lock after two characters whose bits agreed on a phase; a
/// sender whose phase wanders (whole cycles not kept, noise too strong) never locks, and
/// the demodulator then decides non-coherently.
struct TonePhaseTracker: Sendable {
    /// Phase at position `reference` (segments), as a unit phasor: predictions are then
    /// rotations, with no sine or cosine for a sender that keeps whole cycles.
    private var phasor = (re: 1.0, im: 0.0)
    /// Phase change per bit (radians).
    private var drift = 0.0
    private var reference = 0.0
    private var consistentCharacters = 0

    var locked: Bool { consistentCharacters >= 2 }

    mutating func reset() { self = TonePhaseTracker() }

    /// The unit phasor expected at `position` (segments) for bits `segmentsPerBit` long.
    func predicted(at position: Double, segmentsPerBit: Double) -> (re: Double, im: Double) {
        let r = Self.rotation(drift * (position - reference) / segmentsPerBit)
        return (phasor.re * r.re - phasor.im * r.im, phasor.re * r.im + phasor.im * r.re)
    }

    /// (cos a, sin a): a series for the small angles of a drift over a few bits (exact to
    /// 1e-9 below 0.5 rad), the full functions otherwise. Multiplies by reciprocals rather
    /// than dividing: it runs for every bit of every character.
    @inline(__always)
    static func rotation(_ a: Double) -> (re: Double, im: Double) {
        guard a != 0 else { return (1, 0) }
        guard abs(a) < 0.5 else { return (_cos(a), _sin(a)) }
        let a2 = a * a
        return (1 - a2 * (1.0 / 2) * (1 - a2 * (1.0 / 12) * (1 - a2 * (1.0 / 30) * (1 - a2 * (1.0 / 56)))),
                a * (1 - a2 * (1.0 / 6) * (1 - a2 * (1.0 / 20) * (1 - a2 * (1.0 / 42) * (1 - a2 * (1.0 / 72))))))
    }

    /// The unit phasor by which the prediction turns over `distance` segments.
    func rotation(over distance: Double, segmentsPerBit: Double) -> (re: Double, im: Double) {
        Self.rotation(drift * distance / segmentsPerBit)
    }

    /// Learns from one character's bits of this tone: `z` are their correlations, `centers`
    /// their centre positions (segments). `seedDrift` (radians per bit, from the measured
    /// frequency) starts the drift when the tracker is not yet following this burst.
    mutating func update(z: UnsafeBufferPointer<(re: Double, im: Double)>, centers: UnsafeBufferPointer<Double>,
                         segmentsPerBit: Double, seedDrift: Double, continuing: Bool) {
        guard !z.isEmpty else { return }
        let center = (centers.first! + centers.last!) / 2
        if !continuing || consistentCharacters == 0 {
            drift = seedDrift.isFinite ? seedDrift : 0
            phasor = (1, 0)
            reference = center
            consistentCharacters = 0
        }
        // Vector sum of each bit against its prediction: its direction is the phase error,
        // its length against the sum of lengths says how consistent the bits were.
        var sum = (re: 0.0, im: 0.0), lengths = 0.0
        let predicted0 = predicted(at: centers[0], segmentsPerBit: segmentsPerBit)
        let driftPerSegment = drift / segmentsPerBit
        for i in 0..<z.count {
            let r = Self.rotation(driftPerSegment * (centers[i] - centers[0]))
            let p = (re: predicted0.re * r.re - predicted0.im * r.im, im: predicted0.re * r.im + predicted0.im * r.re)
            sum.re += z[i].re * p.re + z[i].im * p.im
            sum.im += z[i].im * p.re - z[i].re * p.im
            lengths += (z[i].re * z[i].re + z[i].im * z[i].im).squareRoot()
        }
        let length = (sum.re * sum.re + sum.im * sum.im).squareRoot()
        let consistency = lengths > 0 ? length / lengths : 0
        guard length > 0 else {
            consistentCharacters = 0
            return
        }
        let error = (re: sum.re / length, im: sum.im / length)  // unit phasor of the error
        let starting = consistentCharacters == 0
        // Move the reference to this character's centre, corrected by all of the error when
        // starting and by half of it (the half angle) after: a second-order loop.
        let atCenter = predicted(at: center, segmentsPerBit: segmentsPerBit)
        var correction = error
        if !starting {
            let h = (re: error.re + 1, im: error.im)
            let n = (h.re * h.re + h.im * h.im).squareRoot()
            correction = n > 1e-9 ? (h.re / n, h.im / n) : (0, 1)
            drift += 0.2 * _atan2(error.im, error.re) / max(1, abs(center - reference) / segmentsPerBit)
        }
        let next = (re: atCenter.re * correction.re - atCenter.im * correction.im,
                    im: atCenter.re * correction.im + atCenter.im * correction.re)
        let norm = (next.re * next.re + next.im * next.im).squareRoot()
        phasor = (next.re / norm, next.im / norm)
        reference = center
        consistentCharacters = consistency > 0.8 ? consistentCharacters + 1 : 0
    }
}
