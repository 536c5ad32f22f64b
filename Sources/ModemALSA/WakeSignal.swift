import Glibc

/// A counting semaphore (POSIX `sem_t`) one thread posts to wake another.
///
/// `post()` is async-signal-safe and allocation free, so audio threads and signal handlers
/// may call it. Waiters always re-check their condition: a post may be left over from
/// earlier.
public final class WakeSignal: @unchecked Sendable {
    // @unchecked: sem_t is designed for concurrent use from any thread.
    private let semaphore: UnsafeMutablePointer<sem_t>

    /// A semaphore that starts with no post.
    public init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes one waiter, or the next to wait; async-signal-safe.
    public func post() { sem_post(semaphore) }

    /// Waits until posted or `seconds` pass; true if posted.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let whole = Int(seconds)
        var nanos = now.tv_nsec + Int((seconds - Double(whole)) * 1e9)
        var secs = now.tv_sec + whole
        if nanos >= 1_000_000_000 {
            secs += 1
            nanos -= 1_000_000_000
        }
        var deadline = timespec(tv_sec: secs, tv_nsec: nanos)
        while true {
            if sem_timedwait(semaphore, &deadline) == 0 { return true }
            if errno != EINTR { return false }
        }
    }
}

/// Seconds on the monotonic clock, for latency and stall measurements.
public func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
