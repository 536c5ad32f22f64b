/// Board -> phone HiJack receiver: square-wave Manchester from the microphone line to bytes,
/// for each HiJack generation (``HiJackGeneration``).
///
/// The signal path is shared (``HiJackEdgeDetector``: DC removal, a low-pass that removes
/// the power tone, a comparator with hysteresis, edges dated at interpolated zero
/// crossings); the bit recovery is the generation's own:
/// - Gen 1: frames of start, 8 data bits, even parity and stop, the line idling in 1s;
/// - hijack-infinity: the same frames, at whatever rate the board's build runs (780-1500
///   baud), read by ``ByteProtocol/hijackInfinity`` as 0xDD packets;
/// - lab11: packets as one bit stream (preamble of 1s, start 0, bytes LSB first) ended by
///   a postamble without transitions; a packet is delivered only when its checksum holds.
///
/// Polarity is found from the signal, so inverted audio paths decode without configuration.
///
/// Nothing is delivered unless it is proven. Noise passes start, parity and stop checks now
/// and then (about one frame in three seconds of white noise), so a Gen 1 or infinity frame
/// must follow at least ``provingIdleHalfBits`` idle half bits (a powered board idles
/// continuously, so its first frame does), or a proven frame in the same clocked run, or
/// be one of two good frames in a row, the second after the stop bit and one more idle 1,
/// which prove each other (a parity error then ends the run's proof). A frame left unproven
/// when sync is lost, a damaged frame follows, or the input ends is dropped and counted in
/// ``unprovenFrames``. A lab11 packet is proven by its 8-bit checksum, at least three bytes
/// of more than one value, and the pause that ends it. A Gen 1 or infinity decoder stops
/// delivering once a lab11 reader on the same edges proves a packet
/// (``foreignGeneration``): random bits read as frames pass their checks too often.
///
/// Gen 1 follows about -13 %/+14 % around the nominal bit rate, infinity and lab11 the
/// generation's whole range (``HiJackGeneration/decodableBaud``). Silence,
/// signals below -54 dBFS and non-finite samples (treated as 0; input is clamped to +-8)
/// produce no events. State is kept between calls; chunks may have any size, including 0;
/// nothing allocates except appending to `events` (and a lab11 packet's bytes, held in a
/// buffer of fixed capacity).
public struct HiJackDecoder: Sendable {
    /// Samples per second the decoder was built for (8000-192000 Hz).
    public let sampleRate: Double
    /// The board's bit rate expected, in baud (``HiJackGeneration/boardBaud`` unless given).
    public let nominalBaud: Double
    /// Which HiJack's line code and framing the decoder reads.
    public let generation: HiJackGeneration

    /// Idle half bits before a start bit that prove the frame on their own: eight idle 1s.
    /// White noise passes the hunt's three half bits in a row now and then, never sixteen;
    /// a board between back-to-back bytes idles about four half bits, and those frames are
    /// proven by their neighbours instead.
    public static let provingIdleHalfBits = 16
    /// The lowest level (peak, full scale = 1) the comparator reacts to.
    public static let minimumLevel: Float = HiJackEdgeDetector.minimumLevel

    private var front: HiJackEdgeDetector
    private var reader: HiJackGuardedReader

    /// - Parameters:
    ///   - sampleRate: 8000-192000 Hz.
    ///   - nominalBaud: the board's bit rate (default: the generation's); the decoder
    ///     follows at least -13 %/+14 % around it.
    ///   - generation: which HiJack's line code and packets to read.
    /// - Throws: `HiJackConfigurationError` for an unusable rate.
    public init(
        sampleRate: Double, nominalBaud: Double? = nil, generation: HiJackGeneration = .gen1
    ) throws(HiJackConfigurationError) {
        guard sampleRate.isFinite, ModemProfile.sampleRateRange.contains(sampleRate) else {
            throw .sampleRateOutOfRange(sampleRate)
        }
        let baud = nominalBaud ?? generation.boardBaud
        let range = generation.decodableBaud
        guard baud.isFinite, range.contains(baud) else { throw .baudOutOfRange(baud, range) }
        self.sampleRate = sampleRate
        self.nominalBaud = baud
        self.generation = generation
        front = HiJackEdgeDetector(sampleRate: sampleRate, slicesAtMidpoint: generation == .lab11)
        reader = HiJackGuardedReader(sampleRate: sampleRate, nominalBaud: baud, generation: generation)
    }

    /// Decodes a chunk of mono samples, appending a ``ModemEvent`` per byte found.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, into events: inout [ModemEvent]) {
        front.process(samples, to: &reader, into: &events)
    }

    /// Ends the input: a frame or packet cut off by the end is counted as a framing error.
    public mutating func flush(into events: inout [ModemEvent]) {
        reader.flush(at: Double(front.sampleIndex), into: &events)
    }

    /// Forgets all signal history, as if newly created (counters and time base included).
    public mutating func reset() {
        // The same parameters passed the checks in init, so this cannot fail.
        if let fresh = try? HiJackDecoder(sampleRate: sampleRate, nominalBaud: nominalBaud, generation: generation) {
            self = fresh
        }
    }

    /// Samples given since creation or the last ``reset()``.
    public var samplesConsumed: Int64 { front.sampleIndex }
    /// True while a frame or packet is being read or the clock runs through idle line.
    public var isInBurst: Bool { reader.isInBurst }
    /// The bit rate the clock currently runs at.
    public var measuredBaud: Double { sampleRate / reader.period }
    /// What was decoded and dropped since `init`.
    public var counts: HiJackCounts { reader.counts }
    /// Bytes delivered since creation or the last ``reset()``.
    public var byteCount: Int { counts.bytes }
    /// Frames with a wrong parity bit (lab11: packets with a wrong checksum) so far.
    public var parityErrors: Int { counts.parityErrors }
    /// Frames cut short or with a bad stop bit or bit count so far.
    public var framingErrors: Int { counts.framingErrors }
    /// Good frames dropped because nothing proved them (see the type's summary).
    public var unprovenFrames: Int { counts.unprovenFrames }
    /// Current polarity belief: positive = normal, negative = inverted, 0 = undecided.
    public var polarityScore: Int { counts.polarityScore }
    /// The generation the signal turned out to speak when it is not ``generation``: a
    /// Gen 1 or infinity decoder that hears a lab11 packet stops delivering anything.
    public var foreignGeneration: HiJackGeneration? { reader.foreign }
    /// Non-finite input samples replaced by 0.
    public var nonFiniteSamples: Int { front.nonFiniteSamples }
}
