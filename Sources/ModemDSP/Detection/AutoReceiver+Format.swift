// The character format of a burst: proven from a clean reading's line bits, else scored
// by trial decodes.

/// What ``AutoReceiver/chooseFormat(_:_:canWait:)`` found.
enum FormatChoice {
    /// This format, with a fresh demodulator (and the signature, perhaps mark and space
    /// the other way round).
    case chosen(ModemSignature, FrameFormat, FSKDemodulator)
    /// Too few characters yet to prove a format, all of them clean: gather more.
    case waitForMore
}

extension AutoReceiver {
    /// The format of the burst that `samples` open, read with `measured`'s tones and bit
    /// rate, with a fresh demodulator for it: the format its line bits prove
    /// (``provenFormat(_:_:)``), else the best scored one (``scoredFormat(_:_:)``, which
    /// also tries mark and space the other way round); nil when nothing decodes.
    ///
    /// When `canWait`, a burst whose clean characters are too few to prove anything (a
    /// slow modem: 0.28 s holds 8 characters at 300 baud) waits for more blocks instead.
    ///
    /// `bothWays`: mark and space are unproven, so a reading the other way round may win
    /// the scored trials; false when a convention named mark (``ToneConvention``).
    func chooseFormat(_ measured: ModemSignature, _ samples: [Float], canWait: Bool, bothWays: Bool = true)
        -> FormatChoice?
    {
        switch provenFormat(measured, samples) {
        case .proven(let format, let demod): return .chosen(measured, format, demod)
        case .tooFew where mayWait(canWait, samples.count, baud: measured.baud): return .waitForMore
        default: break
        }
        return scoredFormat(measured, samples, bothWays: bothWays).map { .chosen($0.0, $0.1, $0.2) }
    }

    /// Whether a burst of `count` samples whose clean characters are too few may gather
    /// more: after its first two tries (6 and 12 blocks) any modem, after the third (24
    /// blocks) only one under 200 baud (ten characters after a 126-baud preamble need
    /// 1.3 s). A longer wait for a faster modem only gives noise more blocks to mislead
    /// the trials.
    func mayWait(_ canWait: Bool, _ count: Int, baud: Double) -> Bool {
        canWait && (count <= 3 * Self.analysisBlocks * SignalSurvey.blockLength || baud < 200)
    }

    /// Readings tried, in order, for one with ``FormatProof/minimumFrames`` characters and
    /// no error from the first on: between them they read every format's line cleanly
    /// when its characters follow each other directly (8N1 reads the 10- and 11-bit
    /// formats without parity in the ninth data position, 7N1 the 9-bit ones, 6N1 the
    /// 8-bit ones, 5N1 the 7-bit one, 8E1 and 8O1 those with 8 data bits and parity). The
    /// usual 8N1 comes first, so it costs one trial.
    static let proofReadings: [FrameFormat] = [
        .eightN1, try! FrameFormat(dataBits: 7), try! FrameFormat(dataBits: 6), try! FrameFormat(dataBits: 5),
        try! FrameFormat(dataBits: 8, parity: .even), try! FrameFormat(dataBits: 8, parity: .odd),
    ]

    /// The format the burst's line bits prove (see ``FormatProof``), with a fresh
    /// demodulator: the first clean reading of ``proofReadings`` gives the bits. A format
    /// other than the reading's must then decode the burst with no more errors (but for
    /// the last character, which the end of the blocks may cut) and as clean a start, or
    /// the reading's own format is kept.
    func provenFormat(_ measured: ModemSignature, _ samples: [Float]) -> Proof {
        let profile = Detection(startSample: 0, signature: measured, format: .eightN1).profile
        let samplesPerBit = sampleRate / profile.baud
        var events: [ModemEvent] = []
        var tooFew = false
        for reading in Self.proofReadings {
            guard let fresh = trial(profile, reading, samples, into: &events) else { continue }
            guard let proof = FormatProof(reading: events, format: reading, samplesPerBit: samplesPerBit) else {
                let clean = events.dropLast().allSatisfy { $0.kind == .byte }
                tooFew = tooFew || (clean && events.contains { $0.kind == .byte })
                continue
            }
            let format: FrameFormat
            switch proof.best() {
            case .proven(let f): format = f
            case .needsMore:
                tooFew = true
                continue
            case .none: continue
            }
            if format == reading {
                if reading == .eightN1, Self.oneIdleBitAfterMost(proof) {
                    switch elevenBitFormat(profile, samples, samplesPerBit: samplesPerBit) {
                    case .proven(let eleven, let demod): return .proven(eleven, demod)
                    // An 11-bit format reads clean but on too few distinct characters yet.
                    case .tooFew: return .tooFew
                    case .unproven: break
                    }
                }
                return .proven(reading, fresh)
            }
            // The blocks end anywhere: a longer format can lose the last character to the cut.
            let errors = events.dropLast().count { $0.kind != .byte }
            guard let other = trial(profile, format, samples, into: &events),
                events.dropLast().count(where: { $0.kind != .byte }) <= errors,
                FormatProof(reading: events, format: format, samplesPerBit: samplesPerBit) != nil
            else { return .proven(reading, fresh) }
            return .proven(format, other)
        }
        return tooFew ? .tooFew : .unproven
    }

    /// The two readings of a new sender's burst whose characters so far read as cleanly in
    /// 7N1 as in 8N1, every 8N1 character with its top bit set: the line cannot say which
    /// (``BurstReadings``), whatever `detection` chose (a proof names 7N2, the scored trials
    /// 8N1). 7N1 reads a 7N2 line too and breaks only on a top bit of 0; 8N1 breaks only on
    /// a character less than a bit after the last. The last character of `samples` is not
    /// held against either (their end may cut it).
    ///
    /// Nil for any other format, for a reading with an error, and while mark is undecided:
    /// that question is asked first, and such a burst's format is taken as read.
    func topBitReadings(_ detection: Detection, _ samples: [Float]) -> (seven: FSKDemodulator, eight: FSKDemodulator)? {
        let format = detection.format
        guard !detection.isHiJack, detection.markEvidence != .undecided, format.parity == .none,
            format.dataBits >= 7
        else { return nil }
        var events: [ModemEvent] = []
        func clean() -> Bool {
            events.dropLast().allSatisfy { $0.kind == .byte }
                && events.count(where: { $0.kind == .byte }) >= FormatProof.minimumFrames
        }
        guard let eight = trial(detection.profile, .eightN1, samples, into: &events), clean(),
            events.dropLast().allSatisfy({ $0.value & 0x80 != 0 }),
            let seven = trial(detection.profile, try! FrameFormat(dataBits: 7), samples, into: &events), clean()
        else { return nil }
        return (seven, eight)
    }

    /// Formats of 11 bits a character: read as 8N1, each leaves one idle bit after every
    /// character (the second stop bit, or the parity bit and the stop bit). 8N2 comes
    /// last: the formats with parity read as 8N2 too, and their own proofs name them.
    static let elevenBitFormats: [FrameFormat] = [
        try! FrameFormat(dataBits: 7, parity: .even, stopBits: 2),
        try! FrameFormat(dataBits: 7, parity: .odd, stopBits: 2),
        try! FrameFormat(dataBits: 8, parity: .even), try! FrameFormat(dataBits: 8, parity: .odd),
        try! FrameFormat(dataBits: 8, stopBits: 2),
    ]

    /// True when a clean 8N1 reading found exactly one idle bit after most of its
    /// characters: what an 11-bit format's line looks like in 8N1 (a sender that pauses
    /// longer, as most do, does not pay for the trials).
    static func oneIdleBitAfterMost(_ proof: FormatProof) -> Bool {
        guard let r = proof.read(.eightN1) else { return false }
        return 2 * r.oneBitGaps >= r.frames
    }

    /// An 11-bit format that decodes the burst cleanly by itself and whose line bits prove
    /// it, with a fresh demodulator; ``Proof/tooFew`` when one reads clean but its
    /// characters are too few or too alike to prove it yet; ``Proof/unproven`` when none does.
    ///
    /// Why: an 8N1 reading of an 11-bit line follows each character with an idle bit, and
    /// a bit misread there in the first characters (seen on Bell 103's narrow shift, a
    /// run of eight space bits read with a late start) spoils the parity that would prove
    /// the real format, so the line proves 8N1. The 11-bit format's own reading does not
    /// have that idle bit to misplace. A sender that pauses between 8N1 characters fails
    /// these trials: its idle line reads as parity bits that random data breaks, and its
    /// pauses of other lengths than one bit keep 8N2 from proving itself. One that pauses
    /// exactly one bit each time is an 8N2 line (the bytes are the same).
    func elevenBitFormat(_ profile: ModemProfile, _ samples: [Float], samplesPerBit: Double) -> Proof {
        var events: [ModemEvent] = []
        var tooFew = false
        for format in Self.elevenBitFormats {
            guard let fresh = trial(profile, format, samples, into: &events),
                events.dropLast().allSatisfy({ $0.kind == .byte }),
                let proof = FormatProof(reading: events, format: format, samplesPerBit: samplesPerBit)
            else { continue }
            switch proof.best() {
            case .proven(let best) where best == format: return .proven(format, fresh)
            case .needsMore: tooFew = true
            default: continue
            }
        }
        return tooFew ? .tooFew : .unproven
    }

    /// What ``provenFormat(_:_:)`` found.
    enum Proof {
        case proven(FrameFormat, FSKDemodulator)
        /// A reading had no error but too few characters to prove anything.
        case tooFew
        /// No reading was clean.
        case unproven
    }

    /// True when a trial's reading proves its format and its characters' measured tones
    /// (their means) are the profile's, each within ``ModemProfile/matchTolerance``. Bell 202 read a phase-reset Bell
    /// 103 burst as clean 8N1 at Eb/N0 22.9 dB, measuring a space of 1953 Hz.
    static func proves(_ proof: Proof, _ events: [ModemEvent], _ profile: ModemProfile) -> Bool {
        guard case .proven = proof else { return false }
        return measuresTones(events, profile, within: ModemProfile.matchTolerance)
    }

    /// True when `events`' characters' mean measured mark and space are `profile`'s, each
    /// within `tolerance` (a share of the profile's tone); false when they measured none.
    static func measuresTones(_ events: [ModemEvent], _ profile: ModemProfile, within tolerance: Double) -> Bool {
        var (mark, space, marks, spaces) = (0.0, 0.0, 0.0, 0.0)
        for e in events {
            guard let m = e.fsk else { continue }
            if m.markFrequency.isFinite { (mark, marks) = (mark + m.markFrequency, marks + 1) }
            if m.spaceFrequency.isFinite { (space, spaces) = (space + m.spaceFrequency, spaces + 1) }
        }
        guard marks > 0, spaces > 0 else { return false }
        return abs(mark / marks / profile.mark - 1) <= tolerance && abs(space / spaces / profile.space - 1) <= tolerance
    }

    /// Formats ``scoredFormat(_:_:)`` tries, most usual first (ties go to the earlier).
    static let scoredFormats: [FrameFormat] = [
        .eightN1,
        try! FrameFormat(dataBits: 7, parity: .even), try! FrameFormat(dataBits: 7, parity: .odd),
        try! FrameFormat(dataBits: 8, parity: .even), try! FrameFormat(dataBits: 8, parity: .odd),
        try! FrameFormat(dataBits: 7), try! FrameFormat(dataBits: 6), try! FrameFormat(dataBits: 5),
        try! FrameFormat(dataBits: 8, stopBits: 2), try! FrameFormat(dataBits: 7, parity: .even, stopBits: 2),
    ]

    /// Trial-decodes `samples` in the usual formats and returns the best with a fresh
    /// demodulator for it: the most bits in valid characters less three characters' worth
    /// per error.
    ///
    /// - A format with parity beats one without on a tie only when it checked at least 6
    ///   characters (a 7E1 stream reads as valid 8N1 too, with its parity as an eighth data
    ///   bit).
    /// - Against an 8N1 reading with no errors, where characters may stand apart with idle
    ///   line between them (a slow sender's do): a shorter format without parity wins only
    ///   when every 8N1 character has the bits it leaves out set (a 7N1 sender's idle line
    ///   reads as an eighth data bit of 1), else it is finding stray frames between
    ///   characters; a format with parity only when it checked 6 characters or more; two
    ///   stop bits never (idle line reads as the second).
    /// - Mark and space are tried both ways round too (the tone of the longest run, which
    ///   the signature calls mark, is usually but not always the idle tone); the other way
    ///   round must score 3 characters more.
    func scoredFormat(_ measured: ModemSignature, _ samples: [Float], bothWays: Bool = true)
        -> (ModemSignature, FrameFormat, FSKDemodulator)?
    {
        var best: (signature: ModemSignature, format: FrameFormat, score: Int, bytes: Int, demod: FSKDemodulator)?
        var events: [ModemEvent] = []
        let swapped = ModemSignature(mark: measured.space, space: measured.mark, baud: measured.baud)
        for signature in bothWays ? [measured, swapped] : [measured] {
            // The other way round can only win by 3 characters: not worth trying when the
            // measured way read at least 3 with no error (a wrong way reads idle as breaks).
            if signature == swapped, let b = best, b.bytes >= 3, b.score == b.bytes * b.format.bitsPerFrame { break }
            let profile = Detection(startSample: 0, signature: signature, format: .eightN1).profile
            // The bits set in every character of a clean 8N1 reading (nil: not clean).
            var eightBitsSet: UInt8?
            for format in Self.scoredFormats {
                guard let fresh = trial(profile, format, samples, into: &events) else { continue }
                // Scored in bits, not characters: short formats find more (misaligned)
                // frames. A frame of all ones after its start bit is not counted: a short
                // format reads one out of every data bit 0 followed by idle line.
                let ones = UInt8(truncatingIfNeeded: (1 << format.dataBits) - 1)
                let bytes = events.count { $0.kind == .byte && $0.value != ones }
                let errors = events.count { $0.kind != .byte }
                let score = (bytes - 3 * errors) * format.bitsPerFrame
                if format == .eightN1, errors == 0, bytes > 0 {
                    eightBitsSet = events.reduce(UInt8.max) { $0 & $1.value }
                }
                var mustCheck = false
                if let set = eightBitsSet {
                    // Characters that stand apart read the same with one stop bit or two.
                    if format.stopBits == 2 { continue }
                    let leftOut = ~ones
                    if format.parity == .none, format.dataBits < 8, set & leftOut != leftOut { continue }
                    // Idle line after a character passes as a parity bit of 1 half the time.
                    mustCheck = format.parity != .none
                }
                guard let b = best else {
                    best = (signature, format, score, bytes, fresh)
                    continue
                }
                // Parity checks only distinct characters: a run of one character passes it
                // every time or never.
                let distinct = Set(events.lazy.filter { $0.kind == .byte }.map(\.value)).count
                let checked =
                    format.parity != .none && b.format.parity == .none && distinct >= 6 && errors == 0
                // The other way round must win clearly: on a short burst a few characters
                // can frame either way.
                let margin = signature == b.signature ? 0 : 3 * format.bitsPerFrame
                if mustCheck && !checked { continue }
                if score > b.score + margin || (margin == 0 && score == b.score && checked) {
                    best = (signature, format, score, bytes, fresh)
                }
            }
        }
        guard let b = best, b.bytes > 0 else { return nil }
        return (b.signature, b.format, b.demod)
    }
}
