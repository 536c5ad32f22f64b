public import ModemDSP

/// Says when a pinned HiJack generation is not the signal's: a Gen 1 or infinity decoder
/// that hears a lab11 packet stops delivering (``HiJackDecoder/foreignGeneration``), and
/// this observer turns that into the note the command line prints, live or from a file.
public final class HiJackGenerationObserver: DecodeObserver {
    /// Watches a ``HiJackDecoder``.
    public typealias Receiver = HiJackDecoder
    private let pinned: HiJackGeneration
    private var found: HiJackGeneration?

    /// An observer for a decoder pinned to the `pinned` generation.
    public init(pinned: HiJackGeneration) { self.pinned = pinned }

    /// Never needs samples: the decoder itself reports a foreign generation.
    public func wantsSamples(inBurst: Bool) -> Bool { false }

    /// Records the first foreign generation the decoder reports; later ones are ignored.
    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout HiJackDecoder, events: ArraySlice<ModemEvent>
    ) {
        if found == nil { found = receiver.foreignGeneration }
    }

    /// Adds nothing to the burst line.
    public func burstEnded() -> BurstObservation? { nil }

    /// A note naming the pinned generation and the signal's; nil when no other generation was heard.
    public func inputEnded(decodedBytes: Int) -> DecodeNote? {
        found.map { .hiJackMismatch(pinned: pinned, signal: $0) }
    }
}
