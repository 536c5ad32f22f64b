/// Tells whether a capture lost audio while its thread was away, on devices that say
/// nothing about it.
///
/// A card reports an overrun (`-EPIPE`). Sound servers do not: the pulse plugin lets the
/// server drop what overflows, and the pipewire plugin's graph simply skips a client that
/// does not take its audio (a stopped or starved process). So after any return more than a
/// buffer's time after the one before (the thread was not scheduled, or was stopped):
///
/// - a buffer that is full at once means the server dropped the overflow;
/// - otherwise the frames that arrive over the stall plus two buffers must account for all
///   but a buffer of the time since the stall began (a server that kept the audio hands the
///   backlog over at once); fewer means the audio of the stall is gone.
///
/// Evaluated only around stalls, so a device clock a few hundred ppm off the monotonic clock
/// never adds up to a false gap. Time is the caller's (monotonic seconds).
public struct CaptureGapCheck: Sendable {
    /// The device's sample rate in Hz.
    public let rate: Double
    /// The device buffer's length in frames; a return later than its time starts a check.
    public let bufferFrames: Int
    /// The device period's length in frames.
    public let periodFrames: Int
    private var bufferSeconds: Double { Double(bufferFrames) / rate }
    /// The return before the stall being judged, its length, and the frames since.
    private var stallStart: Double?
    private var stallSeconds = 0.0
    private var framesSince = 0

    /// A check for a device at `rate` Hz with the buffer and period it granted, in frames.
    public init(rate: Double, bufferFrames: Int, periodFrames: Int) {
        self.rate = rate
        self.bufferFrames = bufferFrames
        self.periodFrames = periodFrames
    }

    /// One read that brought `got` frames, returning at `now` after the previous return at
    /// `previous`; `queued` gives the frames still in the device buffer (asked only after a
    /// stall). True when audio was lost.
    public mutating func lostAudio(got: Int, now: Double, previous: Double, queued: () -> Int?) -> Bool {
        if now - previous > bufferSeconds {
            if let avail = queued(), avail + got >= bufferFrames - periodFrames {
                stallStart = nil
                return true
            }
            if stallStart == nil {
                stallStart = previous
                stallSeconds = now - previous
                framesSince = 0
            }
        }
        guard let start = stallStart else { return false }
        framesSince += got
        let elapsed = now - start
        guard elapsed >= stallSeconds + 2 * bufferSeconds else { return false }
        stallStart = nil
        return Double(framesSince) < (elapsed - bufferSeconds) * rate
    }
}
