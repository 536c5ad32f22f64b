/// Tells whether a sound server dropped captured audio without saying so, from where the
/// capture stands against the clock.
///
/// Frames read plus the device's delay (`snd_pcm_delay`: frames waiting in the buffer and
/// held by the server) is how far the source has come, so `now - position / rate` stays
/// put while nothing is lost: within 0.02 ms through the pipewire plugin and within about
/// 16 ms through pulse (measured with reads of 25 ms periods, November 2026). Audio that a
/// server drops moves it up for good: a capture process stopped for 30 ms on PipeWire lost
/// one quantum and the offset rose by exactly 23.2 ms, while no read was late enough for
/// ``CaptureGapCheck`` and no `-EPIPE` came.
///
/// Edge cases:
/// - The offset's minimum over ``windowSeconds`` is judged, so the reads that came late
///   (a busy machine) do not count against it.
/// - A rise must hold for two windows in a row: a graph that renegotiates its quantum
///   (another client joins) misreports its delay for about a quarter of a second (+40 ms,
///   then back), which is not a loss.
/// - How far it must rise scales with how much the offset wanders on this device: the
///   median over recent windows of each one's spread (maximum minus minimum), times
///   ``spreadFactor``, and at least ``minimumStepSeconds``. Through pulse on PipeWire the
///   minimum settled 5-12 ms higher for good when another client changed the graph's
///   quantum, with nothing lost, inside a spread of 10-15 ms; through the pipewire plugin
///   the spread is hundredths of a millisecond and a quantum (5-23 ms) stands out.
/// - The reference follows every window that stays within the step of it, so a device
///   clock some hundred ppm off the monotonic clock never adds up to a step.
/// - Losses shorter than the step are not seen.
/// - Not for the PulseAudio plugin, whose delay is an estimate (``ALSAPCM/delayIsExact``):
///   PulseAudio keeps what a stalled client does not take, up to seconds, and what it drops
///   then ``CaptureGapCheck`` sees.
/// - After an overrun the stream starts again from zero: call ``restart()``.
///
/// Time is the caller's (monotonic seconds).
public struct CapturePositionCheck: Sendable {
    /// Seconds over which the offset's minimum is taken. Several reads of the longest
    /// periods (50 ms at `--latency 200`) fall in one.
    public static let windowSeconds = 0.5
    /// The smallest rise that counts as lost audio: well above the pipewire plugin's
    /// wander (0.02 ms), below its smallest usual quantum (256 frames at 48 kHz, 5.3 ms).
    public static let minimumStepSeconds = 0.003
    /// The rise that counts, in typical window spreads (see the edge cases above).
    public static let spreadFactor = 1.5
    /// Windows whose spreads give the typical one (their median).
    static let spreadWindows = 7

    /// The device's sample rate in Hz.
    public let rate: Double
    private var framesRead: Int64 = 0
    private var windowStart: Double?
    private var windowMinimum = Double.infinity
    private var windowMaximum = -Double.infinity
    /// The last windows' spreads (ring of ``spreadWindows``), for the typical one.
    private var spreads = SIMD8<Double>(repeating: 0)
    private var spreadCount = 0
    private var reference: Double?
    /// The minimum of a window that stood above the reference, awaiting the next one.
    private var risen: Double?

    /// A check for a device at `rate` Hz, with no reads and no reference yet.
    public init(rate: Double) {
        self.rate = rate
    }

    /// The stream started again from zero (after an overrun's recovery).
    public mutating func restart() {
        framesRead = 0
        rebase()
    }

    /// Forgets the reference and starts judging afresh (a loss reported another way).
    public mutating func rebase() {
        windowStart = nil
        windowMinimum = .infinity
        windowMaximum = -.infinity
        reference = nil
        risen = nil
    }

    /// One read of `got` frames that returned at `now`, after which the device reported
    /// `delay` frames (nil when it could not tell). Returns the seconds of audio found lost,
    /// 0 when none.
    public mutating func lostSeconds(got: Int, delay: Int?, now: Double) -> Double {
        framesRead += Int64(got)
        guard let delay else { return 0 }
        let offset = now - Double(framesRead + Int64(delay)) / rate
        guard let start = windowStart else {
            windowStart = now
            windowMinimum = offset
            windowMaximum = offset
            return 0
        }
        windowMinimum = min(windowMinimum, offset)
        windowMaximum = max(windowMaximum, offset)
        guard now - start >= Self.windowSeconds else { return 0 }
        let low = windowMinimum
        let step = max(Self.minimumStepSeconds, Self.spreadFactor * typicalSpread())
        spreads[spreadCount % Self.spreadWindows] = windowMaximum - windowMinimum
        spreadCount += 1
        windowStart = now
        windowMinimum = .infinity
        windowMaximum = -.infinity
        guard let base = reference else {
            reference = low
            return 0
        }
        guard low > base + step else {
            risen = nil
            reference = low
            return 0
        }
        guard let first = risen else {
            risen = low
            return 0
        }
        let settled = min(first, low)
        risen = nil
        reference = settled
        return settled - base
    }

    /// The median of the recorded window spreads (0 before the first): one window that
    /// held a loss (its spread is the step) does not move it.
    private func typicalSpread() -> Double {
        let n = min(spreadCount, Self.spreadWindows)
        guard n > 0 else { return 0 }
        for i in 0..<n {
            var below = 0
            var equal = 0
            for j in 0..<n {
                if spreads[j] < spreads[i] { below += 1 } else if spreads[j] == spreads[i] { equal += 1 }
            }
            // The element whose rank range holds the middle position.
            if below <= n / 2 && n / 2 < below + equal { return spreads[i] }
        }
        return spreads[0]
    }
}
