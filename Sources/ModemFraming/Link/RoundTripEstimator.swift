/// The sender's retransmission timeout, from measured round trips (RFC 6298's smoothed mean
/// and deviation, Karn's rule applied by the caller: only packets sent once are measured).
///
/// Before any measurement the timeout is the configuration's airtime-based guess. Every
/// timeout doubles it (up to ``maximumBackoff`` times); a new measurement resets the doubling,
/// so a far end that stalls for seconds is probed ever more rarely, and a live one at once.
struct RoundTripEstimator: Sendable {
    private(set) var smoothed: Double?
    private var deviation = 0.0
    /// The shortest round trip seen, which bounds how soon an acknowledgement can answer.
    private(set) var minimum = Double.infinity
    private var backoff = 1.0
    let initial: Double
    let floor: Double
    /// Why 16: with a 1-2 s round trip, probes of a stalled far end come every 16-30 s at most.
    static let maximumBackoff = 16.0
    /// A timeout never exceeds this many seconds, however slow the measured path.
    static let ceiling = 30.0

    init(initial: Double, floor: Double) {
        self.initial = initial
        self.floor = floor
    }

    /// Seconds to wait for an acknowledgement now.
    var timeout: Double {
        let base = smoothed.map { max(floor, $0 + 4 * deviation) } ?? initial
        return min(Self.ceiling, base * backoff)
    }

    mutating func sample(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        minimum = min(minimum, seconds)
        guard let s = smoothed else {
            smoothed = seconds
            deviation = seconds / 2
            return
        }
        deviation = 0.75 * deviation + 0.25 * abs(s - seconds)
        smoothed = 0.875 * s + 0.125 * seconds
    }

    mutating func backOff() { backoff = min(Self.maximumBackoff, backoff * 2) }
    mutating func progressed() { backoff = 1 }
}
