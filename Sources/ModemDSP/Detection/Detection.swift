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
}
