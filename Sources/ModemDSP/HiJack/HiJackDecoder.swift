/// Board -> phone HiJack receiver: square-wave Manchester from the microphone line to bytes.
///
/// Signal path per sample: DC removal (first-order, 30 Hz, so the half-bit-rate and bit-rate
/// parts of the code keep the same delay), a 4th-order
/// Butterworth low-pass (5 kHz, or 0.3 fs at low rates) that removes the power tone leaking
/// into the microphone line (its zeros sit at fs/2, so a 22.05 kHz tone at 44.1 kHz vanishes),
/// then a comparator with hysteresis at 30 % of a peak-following envelope. Each comparator
/// switch is dated at the last zero crossing in its direction, interpolated between samples,
/// so edges carry fractional-sample times and the hysteresis adds no delay.
///
/// Bit recovery works on those edges. Hunting: at least 3 short intervals (half bits of idle
/// 1s, each 0.3-0.7 of the next interval) followed by a long one (a whole bit) mark a start bit's mid-cell transition; the long
/// interval measures the bit period. The start edge's direction gives the polarity (falling =
/// normal), and polarity locks once frames with good parity and stop bit agree, so inverted
/// audio paths decode without configuration. In a frame, edges closer than 0.7 bit to the
/// last mid-cell edge are cell-boundary edges and ignored; one within 0.7-1.3 bits is the
/// next bit (direction = value) and re-times the clock (gain 0.2); none by then loses sync.
/// After a good stop bit the clock keeps running through idle 1s, so a frame followed by a
/// single stop bit and the next start bit still decodes.
///
/// A frame is printed only when proven, since noise passes start, parity and stop checks now
/// and then (about one frame in three seconds of white noise): it must follow at least
/// ``provingIdleHalfBits`` idle half bits (a powered board idles continuously, so its first
/// frame does), or a proven frame in the same clocked run, or be followed by a second good
/// frame in that run, which proves both. A frame left unproven when sync is lost, a damaged
/// frame follows, or the input ends is dropped and counted in ``unprovenFrames``.
///
/// Accepts 1300-1700 baud (tested; about 1150-1900 measured) around the nominal 1489.45
/// without configuration. Silence,
/// signals below -54 dBFS and non-finite samples (treated as 0; input is clamped to +-8)
/// produce no events. State is
/// kept between calls; chunks may have any size, including 0; nothing allocates except
/// appending to `events`.
public struct HiJackDecoder: Sendable {
    public let sampleRate: Double
    public let nominalBaud: Double

    /// Frames decoded, and frames rejected, since `init`.
    public private(set) var byteCount = 0
    public private(set) var parityErrors = 0
    public private(set) var framingErrors = 0
    /// Non-finite input samples replaced by 0.
    public private(set) var nonFiniteSamples = 0
    /// Good frames dropped because nothing proved them (see the type's summary).
    public private(set) var unprovenFrames = 0

    /// Idle half bits before a start bit that prove the frame on their own: eight idle 1s.
    /// White noise passes the hunt's three half bits in a row now and then, never sixteen;
    /// a board between back-to-back bytes idles about four half bits, and those frames are
    /// proven by their neighbours instead.
    public static let provingIdleHalfBits = 16
    /// Current polarity belief: positive = normal, negative = inverted, 0 = undecided.
    public private(set) var polarityScore = 0

    // Filters and comparator.
    private var highPass: DCBlocker
    private var lowPass1: SecondOrderSection
    private var lowPass2: SecondOrderSection
    private var envelope: Float = 0
    private let envelopeDecay: Float
    private var high = false
    private var previous: Float = 0
    private var lastUpCross: Double = 0
    private var lastDownCross: Double = 0
    private var sampleIndex: Int64 = 0
    /// Samples given when the current edge (or flush) was seen.
    private var decidedAt: Int64 = 0

    // Bit recovery.
    private enum Mode: Sendable { case hunting, frame, clocked }
    private var mode = Mode.hunting
    private var lastEdge: Double = -1e9
    private var shortCount = 0
    /// The last three short intervals, newest first.
    private var shorts: (Double, Double, Double) = (0, 0, 0)
    private var anchor: Double = 0
    private var period: Double
    private var frameStart: Double = 0
    private var bits: UInt16 = 0
    private var bitCount = 0
    private var inverted = false
    private var rejectedStarts = 0
    /// Idle half bits the hunt counted before the current frame's start bit.
    private var idleBeforeStart = 0
    /// True once a frame of the current clocked run is proven.
    private var runProven = false
    /// A good frame of this run waiting for proof.
    private var held: ModemEvent?
    private let nominalPeriod: Double
    private let minPeriod: Double
    private let maxPeriod: Double

    /// The lowest level (peak, full scale = 1) the comparator reacts to.
    public static let minimumLevel: Float = 0.002

    /// - Parameters:
    ///   - sampleRate: 8000-192000 Hz.
    ///   - nominalBaud: the board's bit rate; the decoder follows at least -13 %/+14 % around it.
    /// - Throws: `HiJackConfigurationError` for an unusable rate.
    public init(sampleRate: Double, nominalBaud: Double = HiJack.boardBaud) throws(HiJackConfigurationError) {
        guard sampleRate.isFinite, ModemProfile.sampleRateRange.contains(sampleRate) else {
            throw .sampleRateOutOfRange(sampleRate)
        }
        let range = 1_000.0...2_000.0
        guard nominalBaud.isFinite, range.contains(nominalBaud) else { throw .baudOutOfRange(nominalBaud, range) }
        self.sampleRate = sampleRate
        self.nominalBaud = nominalBaud
        let cutoff = min(5_000, 0.3 * sampleRate)
        highPass = DCBlocker(cutoff: 30, sampleRate: sampleRate)
        lowPass1 = .lowPass(cutoff: cutoff, q: 0.5412, sampleRate: sampleRate)
        lowPass2 = .lowPass(cutoff: cutoff, q: 1.3066, sampleRate: sampleRate)
        envelopeDecay = Float(1 - 1 / (0.02 * sampleRate))
        nominalPeriod = sampleRate / nominalBaud
        period = nominalPeriod
        minPeriod = nominalPeriod * 0.84
        maxPeriod = nominalPeriod * 1.2
    }

    /// Decodes a chunk of mono samples, appending a ``ModemEvent`` per frame found.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, into events: inout [ModemEvent]) {
        guard !samples.isEmpty else { return }
        // Per-sample state lives in locals; `edge` touches only the bit-recovery state.
        var hp = highPass
        var lp1 = lowPass1
        var lp2 = lowPass2
        var env = envelope
        var isHigh = high
        var prev = previous
        var up = lastUpCross
        var down = lastDownCross
        var index = Double(sampleIndex)
        let decay = envelopeDecay
        let floor = Self.minimumLevel
        var bad = 0
        for x in samples {
            var v = x
            if !v.isFinite {
                v = 0
                bad += 1
            }
            // Far beyond full scale is garbage; clamping keeps the filters' state finite.
            v = min(max(v, -8), 8)
            let y = lp2.step(lp1.step(hp.step(v)))
            let a = abs(y)
            env = a > env ? a : env * decay
            let threshold = max(0.3 * env, floor)
            if prev <= 0 && y > 0 {
                up = index - 1 + Double(prev / (prev - y))
            } else if prev >= 0 && y < 0 {
                down = index - 1 + Double(prev / (prev - y))
            }
            if !isHigh && y > threshold {
                isHigh = true
                edge(at: up, rising: true, now: index, into: &events)
            } else if isHigh && y < -threshold {
                isHigh = false
                edge(at: down, rising: false, now: index, into: &events)
            }
            prev = y
            index += 1
        }
        highPass = hp
        lowPass1 = lp1
        lowPass2 = lp2
        envelope = env
        high = isHigh
        previous = prev
        lastUpCross = up
        lastDownCross = down
        sampleIndex += Int64(samples.count)
        nonFiniteSamples += bad
    }

    /// Forgets all signal history, as if newly created (counters and time base included).
    public mutating func reset() {
        // The same parameters passed the checks in init, so this cannot fail.
        if let fresh = try? HiJackDecoder(sampleRate: sampleRate, nominalBaud: nominalBaud) { self = fresh }
    }

    /// Samples given since creation or the last ``reset()``.
    public var samplesConsumed: Int64 { sampleIndex }

    /// True while a frame is being read or the bit clock runs through idle 1s after one.
    public var isInBurst: Bool { mode != .hunting }

    /// Ends the input: a frame cut off by the end is counted as a framing error.
    public mutating func flush(into events: inout [ModemEvent]) {
        decidedAt = sampleIndex
        if mode == .frame { reject(.framingError, into: &events) }
        loseSync()
    }

    /// The bit rate the clock currently runs at.
    public var measuredBaud: Double { sampleRate / period }

    /// - Parameter now: index of the sample that revealed the edge (for ``ModemEvent/decidedAt``).
    private mutating func edge(at t: Double, rising: Bool, now: Double, into events: inout [ModemEvent]) {
        decidedAt = Int64(now) + 1
        let sinceLast = t - lastEdge
        lastEdge = t
        switch mode {
        case .hunting:
            if sinceLast < 0.72 * nominalPeriod {
                shortCount = sinceLast > 0.2 * nominalPeriod ? shortCount + 1 : 0
                shorts = (sinceLast, shorts.0, shorts.1)
            } else if sinceLast <= 1.35 * nominalPeriod && shortCount >= 3 {
                let shortsBeforeStart = shortCount
                shortCount = 0
                // Idle 1s are half bits: each short interval must be near half the long one,
                // which noise rarely manages.
                let low = 0.3 * sinceLast
                let high = 0.7 * sinceLast
                guard (low...high).contains(shorts.0), (low...high).contains(shorts.1), (low...high).contains(shorts.2)
                else { return }
                // A start bit is a 0: falling mid-cell transition on a normal line.
                let startInverted = rising
                if (polarityScore >= 2 && startInverted) || (polarityScore <= -2 && !startInverted) {
                    rejectedStarts += 1
                    if rejectedStarts >= 8 {
                        polarityScore = 0
                        rejectedStarts = 0
                    }
                    return
                }
                inverted = startInverted
                idleBeforeStart = shortsBeforeStart
                beginFrame(at: t, period: sinceLast)
            } else {
                shortCount = 0
            }
        case .frame, .clocked:
            let dt = t - anchor
            if dt < 0.7 * period { return }  // a cell-boundary edge
            if dt > 1.3 * period {
                if mode == .frame { reject(.framingError, into: &events) }
                loseSync()
                return
            }
            period = min(max(period + 0.2 * (dt - period), minPeriod), maxPeriod)
            anchor = t
            let bit: UInt16 = rising != inverted ? 1 : 0
            if mode == .clocked {
                if bit == 0 { beginFrame(at: t, period: period) }
                return
            }
            bitCount += 1
            bits |= bit << UInt16(bitCount - 1)
            if bitCount == 10 { finishFrame(into: &events) }
        }
    }

    /// Back to hunting: the clocked run ends, and a frame it left unproven with it.
    private mutating func loseSync() {
        mode = .hunting
        shortCount = 0
        runProven = false
        dropHeld()
    }

    private mutating func dropHeld() {
        if held != nil { unprovenFrames += 1 }
        held = nil
    }

    /// Prints a good frame when proven, else holds it until the next frame of the run.
    private mutating func accept(_ frame: ModemEvent, into events: inout [ModemEvent]) {
        if runProven || idleBeforeStart >= Self.provingIdleHalfBits || held != nil {
            if let first = held {
                events.append(first)
                byteCount += 1
            }
            held = nil
            events.append(frame)
            byteCount += 1
            runProven = true
        } else {
            held = frame
        }
    }

    private mutating func beginFrame(at t: Double, period measured: Double) {
        mode = .frame
        anchor = t
        frameStart = t
        period = min(max(measured, minPeriod), maxPeriod)
        bits = 0
        bitCount = 0
    }

    /// Bits 0-7 data, bit 8 parity, bit 9 stop.
    private mutating func finishFrame(into events: inout [ModemEvent]) {
        let data = UInt8(truncatingIfNeeded: bits)
        let parity = UInt8((bits >> 8) & 1)
        let stop = (bits >> 9) & 1
        if stop != 1 {
            reject(.framingError, into: &events)
            loseSync()
        } else if parity != HiJack.evenParity(data) {
            reject(.parityError, into: &events)
            // The stop bit was right, so the clock is still good; an unproven frame is not.
            dropHeld()
            mode = .clocked
        } else {
            accept(event(.byte, data), into: &events)
            polarityScore = min(max(polarityScore + (inverted ? -1 : 1), -4), 4)
            rejectedStarts = 0
            mode = .clocked
        }
    }

    private mutating func reject(_ kind: ModemEvent.Kind, into events: inout [ModemEvent]) {
        if kind == .parityError { parityErrors += 1 } else { framingErrors += 1 }
        if polarityScore > 0 { polarityScore -= 1 } else if polarityScore < 0 { polarityScore += 1 }
        events.append(event(kind, UInt8(truncatingIfNeeded: bits)))
        bits = 0
        bitCount = 0
    }

    /// The start bit's cell begins half a bit before its mid-cell transition; the frame's
    /// decisive part ends after the parity cell (the stop bit is idle line).
    private func event(_ kind: ModemEvent.Kind, _ value: UInt8) -> ModemEvent {
        let start = max(0, frameStart - 0.5 * period)
        return ModemEvent(
            kind: kind, value: value, startSample: Int64(start),
            endSample: Int64((start + Double(HiJack.frameBits) * period).rounded()),
            decidedAt: max(decidedAt, Int64((start + Double(HiJack.frameBits) * period).rounded())),
            metrics: .hijack(HiJackFrameMetrics(baud: measuredBaud, inverted: inverted)))
    }
}
