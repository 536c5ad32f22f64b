import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM request a clean stop instead of killing the process, so playback can
/// drain, capture can stop and counters can be printed.
///
/// The handler only stores a flag (async-signal-safe); loops poll ``isRequested`` at least
/// every 100 ms.
enum StopSignal {
    private static let flag = Atomic<Int>(0)

    static func install() {
        // A parent may have blocked these (test runners, some supervisors); a blocked
        // SIGINT would make the process unstoppable except by SIGKILL.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in StopSignal.flag.store(1, ordering: .relaxed) }
        signal(SIGTERM) { _ in StopSignal.flag.store(1, ordering: .relaxed) }
    }

    static var isRequested: Bool { flag.load(ordering: .relaxed) != 0 }
}
