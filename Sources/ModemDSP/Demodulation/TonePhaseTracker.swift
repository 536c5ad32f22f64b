import RealModule

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

    /// The unit phasor expected at `position` (segments), for bits of `1 / bitsPerSegment`
    /// segments (the reciprocal: it is asked for every character).
    @inline(__always)
    func predicted(at position: Double, bitsPerSegment: Double) -> (re: Double, im: Double) {
        let r = Self.rotation(drift * (position - reference) * bitsPerSegment)
        return (phasor.re * r.re - phasor.im * r.im, phasor.re * r.im + phasor.im * r.re)
    }

    /// (cos a, sin a): a series for the small angles of a drift over a few bits (exact to
    /// 1e-9 below 0.5 rad), the full functions otherwise. Multiplies by reciprocals rather
    /// than dividing: it runs for every bit of every character.
    @inline(__always)
    static func rotation(_ a: Double) -> (re: Double, im: Double) {
        guard a != 0 else { return (1, 0) }
        guard abs(a) < 0.5 else { return (Double.cos(a), Double.sin(a)) }
        let a2 = a * a
        return (
            1 - a2 * (1.0 / 2) * (1 - a2 * (1.0 / 12) * (1 - a2 * (1.0 / 30) * (1 - a2 * (1.0 / 56)))),
            a * (1 - a2 * (1.0 / 6) * (1 - a2 * (1.0 / 20) * (1 - a2 * (1.0 / 42) * (1 - a2 * (1.0 / 72)))))
        )
    }

    /// The unit phasor by which the prediction turns over `distance` segments.
    @inline(__always)
    func rotation(over distance: Double, bitsPerSegment: Double) -> (re: Double, im: Double) {
        Self.rotation(drift * distance * bitsPerSegment)
    }

    /// Learns from one character's bits of this tone: `z` are their correlations, `centers`
    /// their centre positions (segments), `bitsPerSegment` the reciprocal of the bit length.
    /// `continuing` false (a new burst) starts afresh. Bits with no energy (silence) carry
    /// no phase: a character of them breaks the lock.
    mutating func update(
        z: UnsafeBufferPointer<(re: Double, im: Double)>, centers: UnsafeBufferPointer<Double>,
        bitsPerSegment: Double, continuing: Bool
    ) {
        guard let c0 = centers.first, let cLast = centers.last, !z.isEmpty else { return }
        let center = (c0 + cLast) / 2
        if !continuing || consistentCharacters == 0 {
            drift = 0  // whole-cycle senders need none; others stay non-coherent
            phasor = (1, 0)
            reference = center
            consistentCharacters = 0
        }
        // Vector sum of each bit against its prediction: its direction is the phase error,
        // its length against the sum of lengths says how consistent the bits were. The
        // prediction at the first bit is factored out of the sum: z conj(p0 r) = z conj(r) conj(p0).
        var turned = (re: 0.0, im: 0.0)
        var lengths = 0.0
        let driftPerSegment = drift * bitsPerSegment
        for i in 0..<z.count {
            let r = Self.rotation(driftPerSegment * (centers[i] - c0))
            turned.re += z[i].re * r.re + z[i].im * r.im
            turned.im += z[i].im * r.re - z[i].re * r.im
            lengths += (z[i].re * z[i].re + z[i].im * z[i].im).squareRoot()
        }
        let p0 = predicted(at: c0, bitsPerSegment: bitsPerSegment)
        let sum = (re: turned.re * p0.re + turned.im * p0.im, im: turned.im * p0.re - turned.re * p0.im)
        let length = (sum.re * sum.re + sum.im * sum.im).squareRoot()
        guard length > 0 else {
            consistentCharacters = 0
            return
        }
        let starting = consistentCharacters == 0
        // Move the reference to this character's centre, corrected by all of the error
        // (the direction of `sum`) when starting and by half of it after: a second-order
        // loop. The half angle's direction is sum + |sum|, and only directions matter until
        // the one normalisation at the end: the serial chain of square roots and divisions,
        // which sets this function's speed, is one long instead of three.
        let atCenter = predicted(at: center, bitsPerSegment: bitsPerSegment)
        var correction = sum
        if !starting {
            correction = (re: sum.re + length, im: sum.im)
            if !(correction.re * correction.re + correction.im * correction.im > 1e-18 * length * length) {
                correction = (0, length)  // a half turn: either quarter turn is as good
            }
            drift += 0.2 * arcTangent2(sum.im, sum.re) / max(1, abs(center - reference) * bitsPerSegment)
        }
        let next = (
            re: atCenter.re * correction.re - atCenter.im * correction.im,
            im: atCenter.re * correction.im + atCenter.im * correction.re
        )
        let inverseNorm = 1 / (next.re * next.re + next.im * next.im).squareRoot()
        phasor = (next.re * inverseNorm, next.im * inverseNorm)
        let consistent = length > 0.8 * lengths
        reference = center
        consistentCharacters = consistent ? consistentCharacters + 1 : 0
    }
}
