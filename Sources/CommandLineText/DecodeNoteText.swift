import ModemDSP
public import ModemDecoding

extension DecodeNote {
    /// The line for stderr, e.g. "retuned to the sender's measured tones: mark 7321.4 Hz,
    /// space 4880.2 Hz" or "nothing decoded: the input is silent (digital zero)".
    public var text: String {
        switch self {
        case .channelChosen(let input, let channel, let channels):
            return "\(input): decoding channel \(channel + 1) of \(channels)"
        case .retuned(let mark, let space):
            return "retuned to the sender's measured tones: mark \(fixed(mark, 1)) Hz, space \(fixed(space, 1)) Hz"
        case .detected(let detection):
            return detection.text
        case .markUnproven(let bursts, let d):
            return "\(bursts) burst(s) not printed: which tone is mark is unproven (\(d.signature.summary), "
                + "a tone pair of no known modem, read as well both ways round); pin with \(d.options), "
                + "or with --mark and --space the other way round"
        case .formatUnproven(let bursts, let d):
            return "\(bursts) burst(s) not printed: 7 data bits or 8 is unproven (\(d.signature.summary), "
                + "every character reads as 7 data bits and as 8 with the top bit set); pin 7 bits with "
                + "\(d.options), or 8 with \(d.signature.options)"
        case .profileMismatch(let pinned, let signature):
            return
                "the signal does not match \(pinned.name) (\(fixed(pinned.baud, 0)) baud, mark \(fixed(pinned.mark, 0)) Hz, "
                + "space \(fixed(pinned.space, 0)) Hz): it looks like \(signature.summary); decode with \(signature.suggestion), "
                + "or without --profile to detect it"
        case .hiJackMismatch(let pinned, let signal):
            return "the signal is \(signal.name), not \(pinned.name) (a packet proved by its checksum): "
                + "nothing printed from then on; decode with --profile \(signal.name), or without --profile to detect it"
        case .nothingDecoded(let diagnosis):
            return "nothing decoded: \(diagnosis.text)"
        }
    }
}
