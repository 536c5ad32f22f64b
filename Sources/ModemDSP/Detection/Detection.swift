/// What ``AutoReceiver`` detected for one burst: the modem's tones, bit rate and character
/// format, and the options that would pin them.
public struct Detection: Sendable, Equatable, CustomStringConvertible {
    /// First sample of the burst (where the receiver started decoding it).
    public var startSample: Int64
    /// FSK: the measured tones and bit rate. HiJack: the bit rate (tones 0).
    public var signature: ModemSignature
    /// FSK: the character format. HiJack: its fixed 8E1 frame.
    public var format: FrameFormat
    /// HiJack's Manchester code instead of FSK, and its polarity (nil for FSK).
    public var hiJackInverted: Bool?
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

    /// A HiJack burst at `hiJackBaud`, `inverted` or not.
    public init(startSample: Int64, hiJackBaud: Double, inverted: Bool) {
        self.startSample = startSample
        signature = ModemSignature(mark: 0, space: 0, baud: hiJackBaud)
        format = try! FrameFormat(dataBits: 8, parity: .even)
        hiJackInverted = inverted
        markEvidence = .convention("HiJack")
    }

    /// True for a HiJack burst.
    public var isHiJack: Bool { hiJackInverted != nil }

    /// The profile the burst is decoded with: the matching built-in one, else the measured
    /// values (named "custom").
    public var profile: ModemProfile {
        signature.profile
            ?? ModemProfile(name: "custom", baud: signature.baud, mark: signature.mark, space: signature.space)
    }

    /// Command-line options that pin this detection, e.g. `--profile webjack-1225` or
    /// `--baud 600 --mark 3000 --space 1800 --parity even --data-bits 7`.
    public var options: String {
        if isHiJack { return "--profile hijack" }
        var parts = [signature.options]
        if format.parity != .none { parts.append("--parity \(format.parity.rawValue)") }
        if format.dataBits != 8 { parts.append("--data-bits \(format.dataBits)") }
        if format.stopBits != 1 { parts.append("--stop-bits \(format.stopBits)") }
        return parts.joined(separator: " ")
    }

    /// E.g. "detected webjack-1225 (1225 baud, mark 4900 Hz, space 2450 Hz, 8N1): pin with --profile webjack-1225".
    public var description: String {
        if let inverted = hiJackInverted {
            let polarity = inverted ? "inverted line" : "normal polarity"
            return
                "detected hijack (Manchester, \(Diagnosis.hz(signature.baud)) baud, \(polarity)): pin with --profile hijack"
        }
        // A matching profile is described by its own values: those are what decode it.
        let p = profile
        var values =
            "\(Diagnosis.hz(p.baud)) baud, mark \(Diagnosis.hz(p.mark)) Hz, space \(Diagnosis.hz(p.space)) Hz, \(format)"
        if let bits = signature.toneBits?.seconds(markIsUpper: signature.mark > signature.space) {
            // An Arduino's mark and space bits differ in length; the rate is their mean.
            values += "; mark bits \(Diagnosis.hz(bits.mark * 1e6)) us, space bits \(Diagnosis.hz(bits.space * 1e6)) us"
        }
        let what = signature.profile == nil ? "FSK (\(values))" : "\(p.name) (\(values))"
        switch markEvidence {
        case .unproven:
            return "detected \(what), but which tone is mark is unproven: not printed; pin with \(options) "
                + "or with mark and space the other way round"
        case .bothReadings: return "detected \(what), mark proven by the burst: pin with \(options)"
        default: return "detected \(what): pin with \(options)"
        }
    }
}
