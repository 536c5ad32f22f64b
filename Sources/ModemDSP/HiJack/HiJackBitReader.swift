/// Bit recovery for every HiJack generation's Manchester line.
///
/// Gen 1 and hijack-infinity: frames of start 0, 8 data bits LSB first, even parity and
/// stop 1, with the line idling in 1s between them (PROTOCOLS.md 2.3). lab11: a preamble of
/// 1s, a start 0, then the packet's bytes as one bit stream, ended by a stretch without
/// transitions (see ``finishPacket``).
///
/// Hunting: a run of short intervals (half bits of idle 1s or preamble, each 0.3-0.7 of the
/// next interval) followed by a long one (a whole bit) marks a start bit's mid-cell
/// transition; the long interval measures the bit period. Gen 1 judges the intervals
/// against its nominal rate; infinity and lab11, whose boards run at rates far apart,
/// against each other. The start edge's direction gives the polarity, which locks once
/// good frames agree. In a frame, edges closer than 0.7 bit to the last mid-cell edge are
/// cell-boundary edges and ignored; one within 0.7-1.3 bits is the next bit (direction =
/// value) and re-times the clock (gain 0.2); none by then loses sync (ends a lab11 packet).
/// After a good stop bit the clock keeps running through idle 1s, so a frame followed by a
/// single stop bit and the next start bit still decodes.
///
/// A frame is delivered only when proven (see ``HiJackDecoder``): after
/// ``HiJackDecoder/provingIdleHalfBits`` idle half bits, after a proven frame of the same
/// clocked run, or when ``provingChain`` good frames in a row prove each other. A lab11 packet is
/// delivered when it is whole bytes, at least two, and its last byte is the 8-bit sum of
/// the others.
// Members are internal, not private, for the lab11 packet half in HiJackBitReader+Packets.
struct HiJackBitReader: HiJackEdgeReader {
    enum Mode: Sendable { case hunting, frame, clocked }
    var mode = Mode.hunting
    var lastEdge: Double = -1e9
    var shortCount = 0
    /// The last three short intervals, newest first.
    var shorts: (Double, Double, Double) = (0, 0, 0)
    var anchor: Double = 0
    var period: Double
    var frameStart: Double = 0
    var bits: UInt16 = 0
    var bitCount = 0
    var inverted = false
    var rejectedStarts = 0
    /// Idle half bits the hunt counted before the current frame's start bit.
    var idleBeforeStart = 0
    /// True once a frame of the current clocked run is proven; `byIdle` when the idle
    /// before the run's first frame proved it, rather than a chain of frames.
    var runProven = false
    var provenByIdle = false
    /// Good frames of this run waiting for proof (at most ``provingChain`` - 1).
    var held: [ModemEvent] = []
    /// 1s the clock read between the last frame's parity bit and this frame's start bit
    /// (the stop bit included); -1 for a frame the hunt found.
    var onesBefore = -1
    var clockedOnes = 0
    var decidedAt: Int64 = 0
    /// lab11: the packet's bytes so far (capacity fixed at init).
    var packet: [UInt8] = []
    let generation: HiJackGeneration
    let nominalPeriod: Double
    let minPeriod: Double
    let maxPeriod: Double
    let sampleRate: Double
    /// Short intervals a start needs before it: lab11's board sends seven.
    let minimumShorts: Int
    var counts = HiJackCounts()

    /// The longest lab11 packet (the Android library's limit; the firmware's is 128).
    static let maximumPacketBytes = 256

    init(sampleRate: Double, nominalBaud: Double, generation: HiJackGeneration) {
        self.sampleRate = sampleRate
        self.generation = generation
        nominalPeriod = sampleRate / nominalBaud
        period = nominalPeriod
        if generation == .gen1 {
            minPeriod = nominalPeriod * 0.84
            maxPeriod = nominalPeriod * 1.2
        } else {
            minPeriod = sampleRate / generation.decodableBaud.upperBound
            maxPeriod = sampleRate / generation.decodableBaud.lowerBound
        }
        minimumShorts = generation == .lab11 ? 5 : 3
        if generation.isBitStream { packet.reserveCapacity(Self.maximumPacketBytes) }
        held.reserveCapacity(Self.provingChain)
    }

    var isInBurst: Bool { mode != .hunting }

    mutating func advance(to now: Double, into events: inout [ModemEvent]) {
        // A lab11 packet ends in a postamble without transitions; a board that then lets
        // its pin float sends no edge at all, so silence must end the packet too.
        if generation.isBitStream, mode == .frame, now - anchor > 2 * period {
            decidedAt = Int64(now)
            finishPacket(cleanEnd: true, into: &events)
        }
    }

    mutating func flush(at now: Double, into events: inout [ModemEvent]) {
        decidedAt = Int64(now)
        if mode == .frame {
            if generation.isBitStream {
                finishPacket(cleanEnd: true, into: &events)
            } else {
                reject(.framingError, into: &events)
            }
        }
        loseSync()
    }

    mutating func edge(at t: Double, rising: Bool, now: Double, into events: inout [ModemEvent]) {
        decidedAt = Int64(now) + 1
        let sinceLast = t - lastEdge
        lastEdge = t
        switch mode {
        case .hunting:
            if generation == .gen1 {
                huntNominal(at: t, sinceLast: sinceLast, rising: rising)
            } else {
                huntRelative(at: t, sinceLast: sinceLast, rising: rising)
            }
        case .frame, .clocked:
            let dt = t - anchor
            if dt < 0.7 * period { return }  // a cell-boundary edge
            if dt > 1.3 * period {
                if mode == .frame {
                    if generation.isBitStream {
                        // A board ends a packet with 3.5 bits without a transition; a
                        // sound whose edges merely drift out of step ends none.
                        finishPacket(cleanEnd: dt >= Self.packetGap * period, into: &events)
                    } else {
                        reject(.framingError, into: &events)
                    }
                }
                loseSync()
                // The edge that ended a packet may be the next one's first preamble edge.
                return
            }
            period = min(max(period + 0.2 * (dt - period), minPeriod), maxPeriod)
            anchor = t
            let bit: UInt16 = (rising != inverted) == generation.oneRises ? 1 : 0
            if mode == .clocked {
                if bit == 0 {
                    onesBefore = clockedOnes
                    beginFrame(at: t, period: period)
                } else {
                    clockedOnes += 1
                }
                return
            }
            if generation.isBitStream {
                addPacketBit(UInt8(bit), into: &events)
                return
            }
            bitCount += 1
            bits |= bit << UInt16(bitCount - 1)
            if bitCount == 10 { finishFrame(into: &events) }
        }
    }

    /// Gen 1: short and long judged against the nominal bit rate, which the crystal holds.
    mutating func huntNominal(at t: Double, sinceLast: Double, rising: Bool) {
        if sinceLast < 0.72 * nominalPeriod {
            shortCount = sinceLast > 0.2 * nominalPeriod ? shortCount + 1 : 0
            shorts = (sinceLast, shorts.0, shorts.1)
        } else if sinceLast <= 1.35 * nominalPeriod && shortCount >= minimumShorts {
            tryStart(at: t, sinceLast: sinceLast, rising: rising)
        } else {
            shortCount = 0
        }
    }

    /// infinity and lab11: a long interval is a start when it is about twice a steady run
    /// of shorts, at any rate in the generation's range.
    mutating func huntRelative(at t: Double, sinceLast: Double, rising: Bool) {
        if shortCount >= minimumShorts, (0.84 * minPeriod...1.15 * maxPeriod).contains(sinceLast),
            (1.43 * shorts.0...3.3 * shorts.0).contains(sinceLast)
        {
            tryStart(at: t, sinceLast: sinceLast, rising: rising)
            if mode == .frame { return }
        }
        guard (0.4 * minPeriod...0.6 * maxPeriod).contains(sinceLast) else {
            shortCount = 0
            return
        }
        // A steady run: each short within 30 % of the one before; otherwise a new run.
        let steady = shortCount > 0 && (0.7 * shorts.0...1.43 * shorts.0).contains(sinceLast)
        shortCount = steady ? shortCount + 1 : 1
        shorts = (sinceLast, shorts.0, shorts.1)
    }

    mutating func tryStart(at t: Double, sinceLast: Double, rising: Bool) {
        let shortsBeforeStart = shortCount
        shortCount = 0
        // Idle 1s are half bits: each short interval must be near half the long one,
        // which noise rarely manages.
        let low = 0.3 * sinceLast
        let high = 0.7 * sinceLast
        guard (low...high).contains(shorts.0), (low...high).contains(shorts.1), (low...high).contains(shorts.2)
        else { return }
        // A start bit is a 0: on a line that is not inverted its mid-cell transition falls
        // where 1 rises (Gen 1, infinity), and rises where 1 falls (lab11).
        let startInverted = rising == generation.oneRises
        let score = counts.polarityScore
        if (score >= 2 && startInverted) || (score <= -2 && !startInverted) {
            rejectedStarts += 1
            if rejectedStarts >= 8 {
                counts.polarityScore = 0
                rejectedStarts = 0
            }
            return
        }
        inverted = startInverted
        idleBeforeStart = shortsBeforeStart
        onesBefore = -1
        beginFrame(at: t, period: sinceLast)
    }

    /// Back to hunting: the clocked run ends, and a frame it left unproven with it.
    mutating func loseSync() {
        mode = .hunting
        shortCount = 0
        runProven = false
        provenByIdle = false
        dropHeld()
    }

    mutating func dropHeld() {
        counts.unprovenFrames += held.count
        held.removeAll(keepingCapacity: true)
    }

    /// Good frames in a row, the later ones after the stop bit and at least one more idle
    /// 1, that prove a run no long idle proved. Random bits (a lab11 packet read as frames)
    /// pass a frame's parity and stop bit one time in four and leave an idle 1 after it one
    /// time in two; every board sends stop plus an idle 1 or more between bytes. Three
    /// frames (once in 256 tries) cost Gen 1 a fifth of its bytes at 0 dB full-band SNR
    /// (`bench speed`: 687 of 1999 against 839), so two it is, a lab11 signal being stopped
    /// by ``HiJackGuardedReader`` instead.
    static let provingChain = 2

    /// Delivers a good frame when proven, else holds it until the run's chain proves it.
    mutating func accept(_ frame: ModemEvent, into events: inout [ModemEvent]) {
        if !runProven && onesBefore < 0 && idleBeforeStart >= HiJackDecoder.provingIdleHalfBits {
            runProven = true
            provenByIdle = true
        }
        if !runProven {
            // A frame too close to the one before starts a new chain.
            if !held.isEmpty && onesBefore < 1 { dropHeld() }
            if held.count + 1 < Self.provingChain {
                held.append(frame)
                return
            }
            runProven = true
        }
        for first in held { events.append(first) }
        counts.bytes += held.count + 1
        held.removeAll(keepingCapacity: true)
        events.append(frame)
    }

    mutating func beginFrame(at t: Double, period measured: Double) {
        mode = .frame
        anchor = t
        frameStart = t
        period = min(max(measured, minPeriod), maxPeriod)
        bits = 0
        bitCount = 0
        packet.removeAll(keepingCapacity: true)
    }

    /// Bits 0-7 data, bit 8 parity, bit 9 stop.
    mutating func finishFrame(into events: inout [ModemEvent]) {
        let data = UInt8(truncatingIfNeeded: bits)
        let parity = UInt8((bits >> 8) & 1)
        let stop = (bits >> 9) & 1
        if stop != 1 {
            reject(.framingError, into: &events)
            loseSync()
        } else if parity != HiJack.evenParity(data) {
            reject(.parityError, into: &events)
            // The stop bit was right, so the clock is still good; an unproven frame is not,
            // nor a run only a chain of frames proved.
            dropHeld()
            if !provenByIdle { runProven = false }
            clockedOnes = 0
            mode = .clocked
        } else {
            accept(event(.byte, data), into: &events)
            notePolarity()
            clockedOnes = 0
            mode = .clocked
        }
    }

    mutating func notePolarity() {
        counts.polarityScore = min(max(counts.polarityScore + (inverted ? -1 : 1), -4), 4)
        rejectedStarts = 0
    }

    mutating func reject(_ kind: ModemEvent.Kind, into events: inout [ModemEvent]) {
        if kind == .parityError { counts.parityErrors += 1 } else { counts.framingErrors += 1 }
        if counts.polarityScore > 0 {
            counts.polarityScore -= 1
        } else if counts.polarityScore < 0 {
            counts.polarityScore += 1
        }
        events.append(event(kind, UInt8(truncatingIfNeeded: bits)))
        bits = 0
        bitCount = 0
    }

    /// The start bit's cell begins half a bit before its mid-cell transition; the frame's
    /// decisive part ends after the parity cell (the stop bit is idle line).
    func event(_ kind: ModemEvent.Kind, _ value: UInt8) -> ModemEvent {
        let start = max(0, frameStart - 0.5 * period)
        let end = Int64((start + Double(HiJack.frameBits) * period).rounded())
        return ModemEvent(
            kind: kind, value: value, startSample: Int64(start), endSample: end,
            decidedAt: max(decidedAt, end),
            metrics: .hijack(HiJackFrameMetrics(baud: sampleRate / period, inverted: inverted)))
    }
}
