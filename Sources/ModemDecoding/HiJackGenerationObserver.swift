public import ModemDSP

/// Says when a pinned HiJack generation is not the signal's: a Gen 1 or infinity decoder
/// that hears a lab11 packet stops delivering (``HiJackDecoder/foreignGeneration``), and
/// this observer turns that into the note the command line prints, live or from a file.
public final class HiJackGenerationObserver: DecodeObserver {
    public typealias Receiver = HiJackDecoder
    private let pinned: HiJackGeneration
    private var found: HiJackGeneration?

    public init(pinned: HiJackGeneration) { self.pinned = pinned }

    public func wantsSamples(inBurst: Bool) -> Bool { false }

    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout HiJackDecoder, events: ArraySlice<ModemEvent>
    ) {
        if found == nil { found = receiver.foreignGeneration }
    }

    public func burstEnded() -> BurstObservation? { nil }

    public func inputEnded(decodedBytes: Int) -> DecodeNote? {
        found.map { .hiJackMismatch(pinned: pinned, signal: $0) }
    }
}
