public import ModemDSP

/// What a decode session has to tell, as values: the command line words them.
///
/// The first three come with `-v` only (``DecodeReporting/note(_:)``); the last five when the
/// input ends, always (``DecodeSession/notes``), since they say why bytes were not printed.
public enum DecodeNote: Sendable, Equatable {
    /// Of an input's `channels`, this one (0-based) is decoded.
    case channelChosen(input: String, channel: Int, channels: Int)
    /// The tone adapter retuned the receiver to the sender's measured tones.
    case retuned(mark: Double, space: Double)
    /// The automatic receiver's detection of one burst.
    case detected(Detection)
    /// Bursts not printed because nothing proved which tone is mark: how many, and the first.
    case markUnproven(bursts: Int, first: Detection)
    /// Bursts not printed because every character read as 7 data bits and as 8N1 with the
    /// top bit set alike, and nothing in them chose: how many, and the first.
    case formatUnproven(bursts: Int, first: Detection)
    /// The pinned profile does not match the signal, which looks like `signal`: nothing printed.
    case profileMismatch(pinned: ModemProfile, signal: ModemSignature)
    /// The pinned HiJack generation is not the signal's, which proved to be `signal` (a lab11
    /// packet's checksum): nothing more was printed once that was known.
    case hiJackMismatch(pinned: HiJackGeneration, signal: HiJackGeneration)
    /// Nothing decoded: what the input held.
    case nothingDecoded(Diagnosis)
}
