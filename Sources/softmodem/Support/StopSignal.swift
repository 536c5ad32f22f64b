import ModemLive

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM request a clean stop instead of killing the process, so playback can
/// drain, capture can stop and counters can be printed.
///
/// The handler only stores a flag (async-signal-safe); loops poll ``isRequested`` at least
/// every 100 ms.
enum StopSignal {
    /// The process's stop request, which live sessions poll (``LiveContext/stop``).
    static let flag = StopFlag()

    static func install() {
        // A parent may have blocked these (test runners, some supervisors); a blocked
        // SIGINT would make the process unstoppable except by SIGKILL.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in StopSignal.flag.request() }
        signal(SIGTERM) { _ in StopSignal.flag.request() }
    }

    static var isRequested: Bool { flag.isRequested }
}
