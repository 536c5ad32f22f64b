public import ModemDSP

/// Something that watches one channel's signal beside its receiver: the tone adapter, the
/// `-v` spectrum analyser. A decode session calls it once per step (never per sample), so
/// observers are plugged in rather than wired into the loop.
public protocol DecodeObserver<Receiver>: AnyObject {
    associatedtype Receiver: ModemReceiver
    /// Whether the next step's samples are needed as floats (16-bit input is converted
    /// only when some observer says so), given whether the receiver is inside a burst.
    func wantsSamples(inBurst: Bool) -> Bool
    /// After the receiver processed a step: its samples (empty when not wanted) and events.
    func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout Receiver, events: ArraySlice<ModemEvent>)
    /// A burst ended: text to append to its `-v` line ("" for nothing).
    func burstEnded() -> String
    /// True while the chosen channel's events must wait (a check of the signal is under way).
    var holdsOutput: Bool { get }
    /// True when the chosen channel's events are to be dropped (the check failed).
    var withholdsOutput: Bool { get }
    /// The input ended: settle what is pending; a line for stderr, or nil.
    func inputEnded(decodedBytes: Int) -> String?
}

extension DecodeObserver {
    public var holdsOutput: Bool { false }
    public var withholdsOutput: Bool { false }
    public func inputEnded(decodedBytes: Int) -> String? { nil }
}
