import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a live session reads the time: seconds on a clock that never goes back. Live
/// sessions take it from their ``LiveContext`` instead of reading a global, so tests run
/// them on a ``VirtualClock`` that only moves when a simulated device waits.
public protocol LiveClock: AnyObject, Sendable {
    /// Seconds since an arbitrary origin; never decreases.
    func now() -> Double
}

/// The system's monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`).
public final class MonotonicClock: LiveClock {
    /// The system's clock; every instance reads the same time.
    public init() {}

    /// Seconds on `CLOCK_MONOTONIC`: unaffected by changes to the wall clock.
    public func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}

/// A clock that moves only when told (``advance(by:)``): the in-memory devices advance it
/// when a read or write would have waited, so a session of minutes runs in milliseconds and
/// the same way every time.
public final class VirtualClock: LiveClock {
    private let microseconds = Atomic<Int64>(0)

    /// Starts at `start` seconds.
    public init(start: Double = 0) {
        microseconds.store(Int64(start * 1e6), ordering: .relaxed)
    }

    /// The start plus every ``advance(by:)``, in whole microseconds.
    public func now() -> Double { Double(microseconds.load(ordering: .relaxed)) * 1e-6 }

    /// Moves the clock `seconds` forward (a negative or non-finite value is ignored).
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        microseconds.add(Int64((seconds * 1e6).rounded(.up)), ordering: .relaxed)
    }
}

/// A request to stop, set from anywhere (a signal handler, another thread) and polled by live
/// loops at least every 100 ms. Setting it is async-signal-safe (one atomic store).
public final class StopFlag: Sendable {
    private let flag = Atomic<Int>(0)

    /// A flag not yet set.
    public init() {}

    /// True once ``request()`` has been called; never cleared.
    public var isRequested: Bool { flag.load(ordering: .relaxed) != 0 }

    /// Asks every loop polling this flag to stop; safe in a signal handler.
    public func request() { flag.store(1, ordering: .relaxed) }
}

extension LiveClock {
    /// Waits `seconds` on this clock: a real sleep on the ``MonotonicClock``, a jump on a
    /// ``VirtualClock``. For the rare waits with no device to block on (a device gone).
    public func sleep(_ seconds: Double) {
        if let virtual = self as? VirtualClock {
            virtual.advance(by: seconds)
            return
        }
        guard seconds.isFinite, seconds > 0 else { return }
        var t = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var left = timespec()
        while nanosleep(&t, &left) != 0 && errno == EINTR { t = left }
    }
}
