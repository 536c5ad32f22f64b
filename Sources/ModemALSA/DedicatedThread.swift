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
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        pthread_detach(create(name: name, body))  // pthread_detach(3)
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
