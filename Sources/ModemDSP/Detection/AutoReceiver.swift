/// tone is mark, the bit rate and the character format from the signal, then decodes the
/// burst with an ``FSKDemodulator`` set up for it, from the burst's first sample.
///
/// How: the input is cut into blocks of ``SignalSurvey/blockLength`` samples. A block
/// 10 dB over the quiet level seen between bursts opens a burst; its first
/// ``analysisBlocks`` blocks (or fewer, if it ends sooner; more for a slow modem) are kept,
/// analysed like
/// ``SignalSurvey/diagnosis()`` does (spectrum for the tones, runs between tone changes for
/// the bit rate and mark), and trial-decoded to find the character format (the format
/// that explains the burst's line bits best, see ``FormatProof``). Then the demodulator gets the kept samples and everything after, until two
/// quiet blocks end the burst. What is not a modem is skipped until it ends; the
/// demodulator's own burst confirmation still applies to what is decoded.
///
/// Memory is bounded (``ringBlocks`` blocks of history). The first characters of a burst
/// come out once its analysis blocks are in (about 0.3 s at 44.1 kHz).
public struct AutoReceiver: Sendable {
    /// Samples per second the receiver was built for (8000-192000 Hz).
    public let sampleRate: Double
    /// Blocks of a burst analysed first; when they do not settle it (a slow modem still in
    /// its preamble), twice, four and eight times as many.
    public static let analysisBlocks = 6
    /// Blocks of history kept: the largest analysis, one before the burst, and slack.
    static let ringBlocks = maximumAnalysisBlocks + 3
    /// Samples the ring holds once full.
    static let ringCapacity = ringBlocks * SignalSurvey.blockLength
    /// The most blocks a burst gathers before it is decided, 2.2 s at 44.1 kHz: enough
    /// characters after a slow modem's preamble to prove its format (10 characters of 11
    /// bits after 50 bits of preamble at 126 baud).
    static let maximumAnalysisBlocks = 8 * analysisBlocks

    /// Every burst detected so far, in order.
    public internal(set) var detections: [Detection] = []
    /// Samples consumed so far.
    public internal(set) var samplesConsumed: Int64 = 0

    enum State {
        case listening
        case gathering(start: Int64, loudBlocks: Int, nextTry: Int)
        case decoding(offset: Int64, quietBlocks: Int)
        case ignoring(quietBlocks: Int)
    }
    var state = State.listening
    /// The decoder of the burst being decoded (nil outside ``State/decoding(offset:quietBlocks:)``).
    var decoder: BurstDecoder?
    /// The ring holds samples from here on: while a burst is decoded only levels are kept
    /// (its samples went to the decoder), so the ring starts afresh when it ends.
    var ringValidFrom: Int64 = 0
    var ring: [Float]
    var blockEnergy = 0.0
    var blockFill = 0
    /// Mean power of the quietest recent block between bursts (negative: none yet).
    var quiet = -1.0
    /// The burst being gathered was opened by its tones, not its level.
    var weakBurst = false
    /// The level of the last quiet block that held a weak profile's tone, or of a stretch
    /// that failed as a whole (which may have been a modem throughout); negative: none. Until
    /// the quiet level falls to half of it, or a second of listening passes without such a
    /// tone (``releaseTonalFloor()``), the floor is no noise to find a burst under
    /// (``opensByTone(power:floor:)``): a continuous signal's quietest blocks are the signal
    /// itself, and one of them now and then holds too little of a profile's tone to show it.
    var tonalFloor = -1.0
    /// Listening blocks in a row without a profile's tone since ``tonalFloor`` was set.
    var toneFreeBlocks = 0
    /// What the analysis measured of the burst being gathered, on a try that found too
    /// few characters to prove its format (nil: none yet).
    var gatheredSignature: ModemSignature?
    /// The quietest block of a stretch opened before any quiet level was known (negative:
    /// none): usually a sound card's noise floor, which must not hide a burst that begins
    /// while it is gathered or ignored.
    var blindQuiet = -1.0
    /// Where the stretches that failed their analysis began, while the signal they held
    /// goes on (nil: none): see ``continuesFailedStretch(power:floor:)``.
    var failedStretch: (start: Int64, misses: Int)?
    /// Where the burst being gathered is decoded from, when that is before its analysed
    /// samples (nil: from them): the failed stretches it continues.
    var decodeFrom: Int64?
    var scratch: [ModemEvent] = []

    /// A receiver for `sampleRate`; throws ``ModemConfigurationError/sampleRateOutOfRange(_:)``
    /// outside 8000-192000 Hz.
    public init(sampleRate: Double) throws(ModemConfigurationError) {
        guard sampleRate.isFinite, ModemProfile.sampleRateRange.contains(sampleRate) else {
            throw .sampleRateOutOfRange(sampleRate)
        }
        self.sampleRate = sampleRate
        ring = []
    }

    /// Forgets everything, as if newly created.
    public mutating func reset() {
        self = try! AutoReceiver(sampleRate: sampleRate)
    }

    /// Demodulates `samples` and appends what it found to `events` (sample times count from
    /// the first sample given to this receiver). Chunks may have any length.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, into events: inout [ModemEvent]) {
        run(samples, into: &events)
    }

    /// The same for 16-bit samples (full scale 32768): a burst's decoder reads them as they
    /// are, with no float conversion pass.
    public mutating func process(_ samples: UnsafeBufferPointer<Int16>, into events: inout [ModemEvent]) {
        run(samples, into: &events)
    }

    mutating func run<S: RingSample>(_ samples: UnsafeBufferPointer<S>, into events: inout [ModemEvent]) {
        let b = SignalSurvey.blockLength
        var i = 0
        while i < samples.count {
            let n = min(b - blockFill, samples.count - i)
            let part = UnsafeBufferPointer(rebasing: samples[i..<(i + n)])
            if case .decoding(let offset, _) = state {
                blockEnergy += S.energy(part)
                samplesConsumed += Int64(part.count)
                scratch.removeAll(keepingCapacity: true)
                decoder!.process(part, into: &scratch)
                append(scratch, offset: offset, into: &events)
            } else {
                remember(part)
            }
            blockFill += n
            i += n
            if blockFill == b { endBlock(into: &events) }
        }
    }

    /// Resolves what is under way (a burst still being gathered is analysed with what came
    /// in, and so is a loud last part of a block; a burst being decoded is flushed). The
    /// receiver can keep going afterwards.
    public mutating func flush(into events: inout [ModemEvent]) {
        // Input that ends part way through a block while listening is heard as a block: a
        // message of a character or two at 1200 baud is shorter than one (minimodem's "hi"
        // is 960 samples at 48 kHz, and was never looked at).
        let fill = Double(blockFill)
        if case .listening = state, blockFill > 0, blockEnergy / fill > max(10 * max(quiet, 0), 1e-9) {
            let start = max(0, samplesConsumed - Int64(blockFill + SignalSurvey.blockLength))
            state = .gathering(start: start, loudBlocks: 1, nextTry: Self.analysisBlocks)
        }
        if case .gathering(let start, _, _) = state { _ = startBurst(from: start, canWait: false, into: &events) }
        if case .decoding(let offset, _) = state { endDecoding(offset: offset, into: &events) }
        state = .listening
    }

    mutating func decode(
        _ demod: inout BurstDecoder, _ part: UnsafeBufferPointer<Float>, offset: Int64,
        into events: inout [ModemEvent]
    ) {
        scratch.removeAll(keepingCapacity: true)
        demod.process(part, into: &scratch)
        append(scratch, offset: offset, into: &events)
    }

    func append(_ found: [ModemEvent], offset: Int64, into events: inout [ModemEvent]) {
        for var e in found {
            e.startSample += offset
            e.endSample += offset
            e.decidedAt += offset
            events.append(e)
        }
    }

    mutating func endBlock(into events: inout [ModemEvent]) {
        let b = SignalSurvey.blockLength
        let power = blockEnergy / Double(b)
        blockEnergy = 0
        blockFill = 0
        let floor = max(quiet, 0)
        let loud = power > max(10 * floor, 1e-9)
        let silent = power <= max(3 * floor, 1e-9)
        switch state {
        case .listening:
            // A burst under the noise's level is opened by its tones instead.
            weakBurst = !loud && opensByTone(power: power, floor: floor)
            if loud || weakBurst {
                if quiet < 0 { blindQuiet = power }
                gatheredSignature = nil
                decodeFrom = failedStretch?.start
                failedStretch = nil
                // Start a block early: the onset may sit anywhere in the block before.
                state = .gathering(
                    start: max(0, samplesConsumed - Int64(2 * b)), loudBlocks: 1, nextTry: Self.analysisBlocks)
            } else {
                if quiet < 0 || power < quiet { lowerQuiet(to: power) } else { quiet *= 1.02 }
                releaseTonalFloor()
                continuesFailedStretch(power: power, floor: floor)
            }
        case .gathering(let start, let count, let nextTry):
            if blindQuiet >= 0 { blindQuiet = min(blindQuiet, power) }
            // A burst goes on while it stays over the floor: one opened right at 10 dB over
            // it flickers across that line from block to block.
            // One opened by its tone may be far under the noise, where neither its level
            // nor its tone in one block tells it goes on (a 126-baud sender at -12.5 dB
            // SNR stopped after 18 blocks, short of the characters its trial needs): it
            // gets every analysis (``maximumAnalysisBlocks`` at most).
            let going = floor > 0 ? power > Self.weakLevel * floor || weakBurst : loud
            if going && count + 1 < nextTry {
                state = .gathering(start: start, loudBlocks: count + 1, nextTry: nextTry)
            } else {
                // Nothing known yet: try again on twice the blocks, up to 24. A slow modem
                // waiting to prove its format may go on to ``maximumAnalysisBlocks``.
                let again = going && 2 * nextTry <= 4 * Self.analysisBlocks
                let longer = going && 2 * nextTry <= Self.maximumAnalysisBlocks
                let outcome = startBurst(from: start, canWait: longer, into: &events)
                if outcome != .started {
                    let more = outcome == .waiting ? longer : again
                    if !more {
                        failedStretch = (decodeFrom ?? start, 0)
                        decodeFrom = nil
                    }
                    state =
                        more
                        ? .gathering(start: start, loudBlocks: count + 1, nextTry: 2 * nextTry)
                        : .ignoring(quietBlocks: 0)
                    if !more && blindQuiet >= 0 {
                        quiet = blindQuiet
                        if stretchIsTonal(from: start) { setTonalFloor(blindQuiet) }
                        if regathersBlindStretch(from: start, into: &events) { return }
                        state = .ignoring(quietBlocks: 0)
                    }
                }
            }
        case .decoding(let offset, let q):
            let quietBlocks = silent ? q + 1 : 0
            if quietBlocks >= 2 && !(decoder?.isInBurst ?? false) {
                endDecoding(offset: offset, into: &events)
            } else {
                state = .decoding(offset: offset, quietBlocks: quietBlocks)
            }
        case .ignoring(let q):
            // Something that is not a modem, or nothing but noise (a sound card's noise
            // floor at the start of a capture opens a "burst" before any quiet level is
            // known): the quietest block since is the quiet level, so a noise floor ends it.
            if quiet < 0 || power < quiet { lowerQuiet(to: power) }
            let calm = power <= max(3 * max(quiet, 0), 1e-9)
            if reopensAfterNoiseFloor(power: power) { return }
            state = calm && q >= 1 ? .listening : .ignoring(quietBlocks: calm ? q + 1 : 0)
            if case .listening = state { blindQuiet = -1 }
            continuesFailedStretch(power: power, floor: max(quiet, 0))
        }
    }

    /// The block just ended, of mean `power`, is the quietest: the quiet level.
    mutating func lowerQuiet(to power: Double) {
        quiet = power
        if lastBlockIsTonal() {
            setTonalFloor(power)
        } else if power < tonalFloor / 2 {
            tonalFloor = -1
        }
    }

    /// The floor at `level` holds a profile's tone (``tonalFloor``).
    mutating func setTonalFloor(_ level: Double) {
        tonalFloor = level
        toneFreeBlocks = 0
    }

    /// Forgets a tonal floor after a second of listening blocks without a profile's tone:
    /// the tone has gone, and what is left is noise again. Why: a weak sender's quietest
    /// block, or a first stretch that was a sender detection could not read, set it at
    /// about the noise's own level, which the quiet level then never fell to half of, so
    /// no burst was opened by its tones for the rest of a session.
    mutating func releaseTonalFloor() {
        guard tonalFloor >= 0 else { return }
        toneFreeBlocks = lastBlockIsTonal() ? 0 : toneFreeBlocks + 1
        if Double(toneFreeBlocks * SignalSurvey.blockLength) >= sampleRate { tonalFloor = -1 }
    }

    /// Flushes the burst's decoder and listens again, the ring starting afresh.
    mutating func endDecoding(offset: Int64, into events: inout [ModemEvent]) {
        scratch.removeAll(keepingCapacity: true)
        decoder?.flush(into: &scratch)
        append(scratch, offset: offset, into: &events)
        if let decided = decoder?.decided, !detections.isEmpty {
            detections[detections.count - 1].settle(decided.question, decided.outcome, format: decided.format)
        }
        decoder = nil
        state = .listening
        blindQuiet = -1
        failedStretch = nil
        ringValidFrom = samplesConsumed
    }
}

extension AutoReceiver: ModemReceiver {
    /// True while a detected burst is being decoded.
    public var isInBurst: Bool {
        if case .decoding = state { return true }
        return false
    }
}

/// `--profile auto`: a receiver that finds each burst's modem itself (``AutoReceiver``).
public struct AutoSettings: ModemReceiverFactory, Equatable {
    /// The settings have no options: every burst is measured for its own modem.
    public init() {}
    /// The slowest common rate, so a burst report is not split inside a slow modem's burst.
    public var nominalBaud: Double { 300 }
    /// Each burst finds its own bit rate.
    public var fixedBaud: Double? { nil }
    /// 20 bit times at ``nominalBaud``, as for a fixed FSK profile.
    public var burstGapBits: Double { 20 }

    /// An ``AutoReceiver``; throws for a rate outside 8000-192000 Hz.
    public func makeReceiver(sampleRate: Double) throws(ModemConfigurationError) -> AutoReceiver {
        try AutoReceiver(sampleRate: sampleRate)
    }
}
