import ModemSystem
import Synchronization

/// How long opening a device may take, and what ends the wait early.
///
/// `snd_pcm_open` and the parameter calls after it block without a timeout of their own: a
/// sound-server plugin waits for its server's answer (30 s in libpulse when the server is
/// stopped), and signals do not end the wait. ``ALSAPCM/init(_:limit:)`` therefore opens on
/// a thread of its own and stops waiting after ``seconds``, or as soon as ``isCancelled``
/// says so (checked every ``pollSeconds``). A thread left behind closes the device if it is
/// ever answered, and ends with the process otherwise.
public struct ALSAOpenLimit: Sendable {
    /// Longest wait for the device to open and accept its parameters. A local sound server
    /// answers in milliseconds and a card at once; 5 s covers a server that is starting.
    public var seconds: Double
    /// Polled while waiting: true ends the wait with a ``ALSAError/Reason/interrupted``
    /// error (the command line passes its SIGINT/SIGTERM flag).
    public var isCancelled: @Sendable () -> Bool

    /// How often ``isCancelled`` is polled: a stop request is answered within this.
    public static let pollSeconds = 0.05

    /// A limit of `seconds` (5 by default) that `isCancelled` can end early; by default
    /// nothing cancels it.
    public init(seconds: Double = 5, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.seconds = seconds
        self.isCancelled = isCancelled
    }
}

/// One open in progress on its own thread: the caller waits for its outcome, or gives up
/// and leaves the thread to clean up after itself.
final class PendingOpen: Sendable {
    /// What the opening thread hands over: the PCM handle and what the device granted.
    struct Opened: @unchecked Sendable {
        // @unchecked: the handle passes from the opening thread to the caller once, under
        // the lock, and is never used by both.
        let handle: OpaquePointer
        let granted: ALSAPCM.Granted
    }

    private enum State {
        case waiting
        case finished(Result<Opened, ALSAError>)
        case abandoned
    }

    private let state = Mutex<State>(.waiting)
    private let done = WakeSignal()

    /// Runs `body` on a new thread and waits for it within `limit`. When the wait ends first,
    /// a handle `body` opens later is passed to `close` on that thread.
    static func run(
        _ request: ALSARequest, limit: ALSAOpenLimit,
        _ body: @escaping @Sendable () -> Result<Opened, ALSAError>,
        close: @escaping @Sendable (OpaquePointer) -> Void
    ) throws(ALSAError) -> Opened {
        let pending = PendingOpen()
        DedicatedThread.start(name: "softmodem-open") {
            let result = body()
            let keep = pending.state.withLock { state -> Bool in
                if case .abandoned = state { return false }
                state = .finished(result)
                return true
            }
            if keep {
                pending.done.post()
            } else if case .success(let opened) = result {
                close(opened.handle)
            }
        }
        let deadline = monotonicSeconds() + max(0, limit.seconds)
        var interrupted = false
        // `done` is posted only once the outcome is stored, so each round either finds it or
        // has waited one poll interval.
        while !pending.done.wait(seconds: ALSAOpenLimit.pollSeconds) {
            interrupted = limit.isCancelled()
            if interrupted || monotonicSeconds() >= deadline { break }
        }
        let outcome = pending.state.withLock { state -> Result<Opened, ALSAError>? in
            if case .finished(let result) = state { return result }
            state = .abandoned
            return nil
        }
        if let outcome { return try outcome.get() }
        throw ALSAError.unanswered(
            device: request.device, direction: request.direction, seconds: limit.seconds, interrupted: interrupted)
    }
}
