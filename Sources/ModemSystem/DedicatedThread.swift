#if canImport(Glibc)
    import Glibc
#endif

/// Starts POSIX threads (`pthread_create`) for audio loops and measurements, named through
/// `/proc/thread-self/comm` so tools such as `top -H` show what it is (`pthread_setname_np`
/// is a GNU extension the Glibc module does not export).
///
/// Audio I/O runs on threads of its own rather than on Swift's concurrency pool, whose few
/// threads must never block in a driver call; `bench speed` times one stream per core on
/// them. An audio thread is detached: the streams signal their own exit and the process
/// never joins it. Failure to create a thread (no memory, a
/// process thread limit) is unrecoverable for a live stream and stops the program with the
/// reason, as an allocation failure would.
public enum DedicatedThread {
    /// Runs `body` on a new thread named `name` (at most 15 bytes are kept).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        pthread_detach(create(name: name, body))  // pthread_detach(3)
    }

    /// The real-time priority audio threads ask for (`SCHED_FIFO`): low among real-time
    /// threads (sound servers use 5-20, JACK 70 and up), which is all it takes to run
    /// before every ordinary thread of a machine loaded by other work.
    public static let realTimePriority: Int32 = 10

    /// Moves the calling thread to `SCHED_FIFO` at ``realTimePriority``
    /// (`pthread_setschedparam(3)`), so a busy machine does not stall the audio loop past
    /// its device buffer. Best effort: without the privilege (`CAP_SYS_NICE` or an
    /// `RLIMIT_RTPRIO` allowance) the thread stays as it was and false is returned. The
    /// loops that ask block in `snd_pcm_wait`, and the kernel's real-time throttling keeps
    /// a share of each core for other threads whatever happens.
    public static func raiseToRealTime() -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = min(
            max(realTimePriority, sched_get_priority_min(SCHED_FIFO)), sched_get_priority_max(SCHED_FIFO))
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0  // pthread_setschedparam(3)
    }

    /// Runs `body` with the calling thread at real-time priority, then puts its policy
    /// back (`pthread_getschedparam(3)`, `pthread_setschedparam(3)`). Threads that `body`
    /// starts inherit the priority: a sound server's ALSA plugin starts its own I/O thread
    /// inside `snd_pcm_open` (libpulse's threaded main loop), and that thread carries the
    /// audio to and from the server, so it must not stall any more than ours.
    public static func withRealTimePriority<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var policy: Int32 = 0
        var saved = sched_param()
        guard pthread_getschedparam(pthread_self(), &policy, &saved) == 0, raiseToRealTime() else { return try body() }
        defer { _ = pthread_setschedparam(pthread_self(), policy, &saved) }
        return try body()
    }

    /// Runs `body(0)` ... `body(count - 1)` at once, each on a new thread named `name`, and
    /// returns when all have ended: for measurements that must not share Swift's pool.
    public static func runEach(count: Int, name: String, _ body: @escaping @Sendable (Int) -> Void) {
        let threads = (0..<max(0, count)).map { index in create(name: name) { body(index) } }
        for thread in threads { pthread_join(thread, nil) }  // pthread_join(3)
    }

    private static func create(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
        let box = Unmanaged.passRetained(ThreadStart(body, name)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, runThreadStart, box)  // pthread_create(3)
        guard status == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(box).release()
            fatalError("cannot start the \(name) thread: \(String(cString: strerror(status)))")
        }
        return thread
    }
}

/// What a new thread runs, handed over through `pthread_create`'s argument.
private final class ThreadStart: Sendable {
    let body: @Sendable () -> Void
    let name: String
    init(_ body: @escaping @Sendable () -> Void, _ name: String) {
        self.body = body
        self.name = name
    }
}

/// The thread entry point: names the thread, then runs its body.
private func runThreadStart(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue()
    nameThisThread(start.name)
    start.body()
    return nil
}

/// Best effort: a thread without a name works the same.
private func nameThisThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)  // open(2)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }  // write(2)
    close(fd)
}
