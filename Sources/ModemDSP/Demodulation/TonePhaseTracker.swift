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
    /// Phase (radians) at position `reference` (segments).
    private var phase = 0.0
    /// Phase change per bit (radians).
    private var drift = 0.0
    private var reference = 0.0
    private var consistentCharacters = 0

    var locked: Bool { consistentCharacters >= 2 }

    mutating func reset() { self = TonePhaseTracker() }

    /// The unit phasor expected at `position` (segments) for bits `segmentsPerBit` long.
    func predicted(at position: Double, segmentsPerBit: Double) -> (re: Double, im: Double) {
        let p = phase + drift * (position - reference) / segmentsPerBit
        return (_cos(p), _sin(p))
    }

    /// (cos a, sin a), by series for the small angles of a drift over one character (exact to
    /// 1e-9 below 0.5 rad), by the full functions otherwise.
    private func smallRotation(_ a: Double) -> (re: Double, im: Double) {
        guard abs(a) < 0.5 else { return (_cos(a), _sin(a)) }
        let a2 = a * a
        return (1 - a2 / 2 * (1 - a2 / 12 * (1 - a2 / 30 * (1 - a2 / 56))),
                a * (1 - a2 / 6 * (1 - a2 / 20 * (1 - a2 / 42 * (1 - a2 / 72)))))
    }

    /// The unit phasor by which the prediction turns over `distance` segments.
    func rotation(over distance: Double, segmentsPerBit: Double) -> (re: Double, im: Double) {
        let angle = drift * distance / segmentsPerBit
        return angle == 0 ? (1, 0) : (_cos(angle), _sin(angle))
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
            phase = 0
            reference = center
            consistentCharacters = 0
        }
        // Vector sum of each bit against its prediction: the angle is the phase error, the
        // length against the sum of lengths says how consistent the bits were.
        var sum = (re: 0.0, im: 0.0), lengths = 0.0
        let predicted0 = predicted(at: centers[0], segmentsPerBit: segmentsPerBit)
        for i in 0..<z.count {
            // The first prediction exactly, the rest by turning it through the (small) drift
            // angle since the first bit: no sine per bit.
            let p: (re: Double, im: Double)
            if i == 0 || drift == 0 {
                p = predicted0
            } else {
                let r = smallRotation(drift * (centers[i] - centers[0]) / segmentsPerBit)
                p = (predicted0.re * r.re - predicted0.im * r.im, predicted0.re * r.im + predicted0.im * r.re)
            }
            sum.re += z[i].re * p.re + z[i].im * p.im
            sum.im += z[i].im * p.re - z[i].re * p.im
            lengths += (z[i].re * z[i].re + z[i].im * z[i].im).squareRoot()
        }
        let consistency = lengths > 0 ? (sum.re * sum.re + sum.im * sum.im).squareRoot() / lengths : 0
        let error = _atan2(sum.im, sum.re)
        let bitsSince = max(1, abs(center - reference) / segmentsPerBit)
        let starting = consistentCharacters == 0
        // Move the reference to this character; a second-order loop on phase and drift.
        phase += drift * (center - reference) / segmentsPerBit + (starting ? error : 0.5 * error)
        if !starting { drift += 0.2 * error / bitsSince }
        phase -= 2 * Double.pi * Double(roundToInt(phase / (2 * Double.pi)))  // into [-pi, pi], no fmod
        reference = center
        consistentCharacters = consistency > 0.8 ? consistentCharacters + 1 : 0
    }
}
