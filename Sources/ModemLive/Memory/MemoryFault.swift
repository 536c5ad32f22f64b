/// A fault a real sound device has, scheduled on the ``MemoryAudioSystem``'s clock.
public enum MemoryFault: Sendable, Equatable {
    /// The capture loses `lostFrames` frames at `at` seconds and counts an overrun (an xrun:
    /// the reader was late, or the card's buffer overflowed).
    case overrun(at: Double, lostFrames: Int)
    /// The capture delivers nothing from `at` for `seconds`, not even silence (a suspended
    /// card, a stuck sound server): longer than any buffer.
    case stall(at: Double, seconds: Double)
    /// The device disappears at `at` (a USB card unplugged: ENODEV): every open stream fails
    /// from then on and opening fails until it comes back `seconds` later (nil: never).
    case unplug(at: Double, seconds: Double?)

    /// True when this fault makes the device absent at `t`.
    func isGone(at t: Double) -> Bool {
        guard case .unplug(let at, let seconds) = self else { return false }
        return t >= at && t < at + (seconds ?? .infinity)
    }

    /// True when the device disappeared at or before `t` (whether it is back or not).
    func unplugged(before t: Double) -> Bool {
        guard case .unplug(let at, _) = self else { return false }
        return at <= t
    }

    /// True when the capture delivers nothing at `t`.
    func isStalled(at t: Double) -> Bool {
        guard case .stall(let at, let seconds) = self else { return false }
        return t >= at && t < at + seconds
    }
}

/// The other end of the in-memory line: a board model, a scripted sender, another modem.
/// Called in order, a period at a time, with what our playback put on the line.
public protocol MemoryFarEnd: AnyObject {
    /// Hears `heard` (our playback's first channel, silence when nothing plays) and writes
    /// what it sends into `sent` (zeroed beforehand, as long as `heard`); `frame` is the
    /// line's frame count at the first sample.
    func exchange(heard: UnsafeBufferPointer<Float>, sent: UnsafeMutableBufferPointer<Float>, at frame: Int64)
}

/// A far end that plays fixed signals at set times and records what it hears: for tests of
/// a receiver, and of what a transmitter put on the line.
public final class ScriptedFarEnd: MemoryFarEnd {
    private var signals: [(start: Int64, samples: [Float])] = []
    /// Everything heard, from frame 0.
    public private(set) var heard: [Float] = []

    /// A far end that sends nothing until ``play(_:atFrame:)`` schedules a signal.
    public init() {}

    /// Plays `samples` from line frame `frame` on (added to anything else playing then).
    public func play(_ samples: [Float], atFrame frame: Int64) {
        signals.append((frame, samples))
    }

    /// Records `heard` and adds to `sent` the part of each scheduled signal that falls in this period.
    public func exchange(heard: UnsafeBufferPointer<Float>, sent: UnsafeMutableBufferPointer<Float>, at frame: Int64) {
        self.heard.append(contentsOf: heard)
        let end = frame + Int64(sent.count)
        for s in signals where s.start < end && s.start + Int64(s.samples.count) > frame {
            let from = max(frame, s.start)
            let to = min(end, s.start + Int64(s.samples.count))
            for f in from..<to { sent[Int(f - frame)] += s.samples[Int(f - s.start)] }
        }
    }
}
