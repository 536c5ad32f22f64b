/// What ``AutoReceiver`` detected for one burst: the modem's tones, bit rate and character
/// format (the command line words them, with the options that would pin them).
public struct Detection: Sendable, Equatable {
    /// First sample of the burst (where the receiver started decoding it).
    public var startSample: Int64
    /// FSK: the measured tones and bit rate. HiJack: the bit rate (tones 0).
    public var signature: ModemSignature
    /// FSK: the character format. HiJack: its fixed 8E1 frame.
    public var format: FrameFormat
    /// HiJack's Manchester code instead of FSK, and its polarity (nil for FSK).
    public var hiJackInverted: Bool?
    /// Which HiJack protocol the burst speaks (nil for FSK).
    public var hiJackGeneration: HiJackGeneration?
    /// What proves which tone is mark.
    public var markEvidence: MarkEvidence
    /// What proves the character format.
    public var formatEvidence: FormatEvidence = .line

    /// What proves which of an FSK burst's tones is mark (see ``ToneConvention``).
    public enum MarkEvidence: Sendable, Equatable {
        /// The tone pair is this modem's, whose convention names mark.
        case convention(String)
        /// The burst is being read both ways round; its end decides.
        case undecided
        /// The burst was read both ways round and the other way had more errors.
        case bothReadings
        /// Both readings fit as well: the burst was not printed.
        case unproven
    }

    /// What proves an FSK burst's character format.
    public enum FormatEvidence: Sendable, Equatable {
        /// The burst's opening (``FormatProof``), the trial decodes, a profile's convention
        /// or the same sender's last burst.
        case line
        /// Its characters read as 7 data bits and as 8N1 with the top bit set alike: the
        /// burst is being read both ways; its end decides (``BurstReadings``).
        case undecided
        /// The burst decided between 7 and 8 data bits: the other reading had more errors,
        /// or the characters were text or UTF-8 (``TopBitContent``).
        case wholeBurst
        /// The burst did not decide: it was not printed.
        case unproven
    }

    /// An FSK burst; its mark evidence is the tone pair's convention, else
    /// ``MarkEvidence/undecided``.
    public init(startSample: Int64, signature: ModemSignature, format: FrameFormat) {
        self.startSample = startSample
        self.signature = signature
        self.format = format
        markEvidence = ToneConvention.pair(signature.mark, signature.space).map { .convention($0.name) } ?? .undecided
    }

    /// A HiJack burst of `generation` at `hiJackBaud`, `inverted` or not.
    public init(startSample: Int64, hiJackBaud: Double, inverted: Bool, generation: HiJackGeneration = .gen1) {
        hiJackGeneration = generation
        self.startSample = startSample
        signature = ModemSignature(mark: 0, space: 0, baud: hiJackBaud)
        format = try! FrameFormat(dataBits: 8, parity: .even)
        hiJackInverted = inverted
        markEvidence = .convention(generation.name)
    }

    /// True for a HiJack burst.
    public var isHiJack: Bool { hiJackInverted != nil }

    /// The profile the burst is decoded with: the matching built-in one, else the measured
    /// values (named "custom").
    public var profile: ModemProfile {
        signature.profile
            ?? ModemProfile(name: "custom", baud: signature.baud, mark: signature.mark, space: signature.space)
    }

    /// The detection once a burst read two ways (``BurstReadings``) has been decided:
    /// mark and space, or 7 data bits against 8N1, as `outcome` chose them.
    ///
    /// `format`: the chosen reading's format (a burst read the other way round may frame in
    /// another; ``AutoReceiver/swappedChoice(_:_:)``).
    mutating func settle(
        _ question: BurstReadings.Question, _ outcome: BurstReadings.Outcome, format chosen: FrameFormat
    ) {
        switch (question, outcome) {
        // A convention the burst bore out (or did not contradict: ``BurstOpening``) stays
        // its evidence.
        case (.polarity, .first):
            markEvidence =
                ToneConvention.pair(signature.mark, signature.space).map { .convention($0.name) } ?? .bothReadings
        case (.polarity, .second):
            signature = signature.swappedTones
            format = chosen
            markEvidence = .bothReadings
        case (.polarity, .unproven): markEvidence = .unproven
        // The format detection named stays when it has the data bits the burst proved (7N2
        // read as 7N1 is the same bytes).
        case (.topBit, .first):
            if format.dataBits != 7 { format = try! FrameFormat(dataBits: 7) }
            formatEvidence = .wholeBurst
        case (.topBit, .second):
            if format.dataBits != 8 { format = .eightN1 }
            formatEvidence = .wholeBurst
        // 7N1 is the 7-bit pin that reads the burst whichever line it was (7N2, or 7N1 with
        // characters apart).
        case (.topBit, .unproven):
            format = try! FrameFormat(dataBits: 7)
            formatEvidence = .unproven
        }
    }
}
