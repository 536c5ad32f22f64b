public import ModemDSP
public import ModemSpectrum

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
    /// A burst ended: what this observer measured of it, for its `-v` line (nil for nothing).
    func burstEnded() -> BurstObservation?
    /// True while the chosen channel's events must wait (a check of the signal is under way).
    var holdsOutput: Bool { get }
    /// True when the chosen channel's events are to be dropped (the check failed).
    var withholdsOutput: Bool { get }
    /// The input ended: settle what is pending; what to tell the user always (not only with
    /// `-v`), or nil.
    func inputEnded(decodedBytes: Int) -> DecodeNote?
}

/// What an observer measured of one burst, handed to ``DecodeReporting/burst(_:rate:observations:)``.
public enum BurstObservation: Sendable, Equatable {
    /// The spectrum analyser's mark and space tones (nil: not found in the burst).
    case spectrum(mark: ToneMeasurement?, space: ToneMeasurement?)
}

extension DecodeObserver {
    /// Never holds output back: the default for an observer that runs no check.
    public var holdsOutput: Bool { false }
    /// Never withholds output: the default for an observer that runs no check.
    public var withholdsOutput: Bool { false }
    /// Settles nothing and has nothing to tell: the default returns nil.
    public func inputEnded(decodedBytes: Int) -> DecodeNote? { nil }
}
