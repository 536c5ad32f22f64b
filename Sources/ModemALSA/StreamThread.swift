import ModemSystem
import Synchronization

/// A stream's audio thread: started once, its end awaited, and the error it ended with
/// handed to the other side without a lock.
///
/// The audio thread records an error once, then publishes it with a releasing store; the
/// other side sees it after an acquiring load.
final class StreamThread: @unchecked Sendable {
    // @unchecked: `error` is written once, before `failed` is set, and read only after.
    private let started = Atomic<Bool>(false)
    private let exited = WakeSignal()
    private let hasExited = Atomic<Bool>(false)
    private let failed = Atomic<Bool>(false)
    private let realTime = Atomic<Bool>(false)
    private var error: ALSAError?

    /// Whether ``start(name:_:)`` has run.
    var isStarted: Bool { started.load(ordering: .acquiring) }

    /// True once the thread runs at real-time priority; false without the privilege (see
    /// ``DedicatedThread/raiseToRealTime()``).
    var isRealTime: Bool { realTime.load(ordering: .relaxed) }

    /// Runs `body` on a dedicated thread named `name` the first time, at real-time priority
    /// when the process may have it; later calls do nothing.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DedicatedThread.start(name: name) { [self] in
            defer {
                hasExited.store(true, ordering: .releasing)
                exited.post()
            }
            realTime.store(DedicatedThread.raiseToRealTime(), ordering: .relaxed)
            body()
        }
    }

    /// Blocks until the thread's body has returned, or for at most `seconds`; true if it
    /// returned (call only after ``start(name:_:)``).
    ///
    /// Bounded because a sound-server plugin's drop and drain wait for the server's answer
    /// without a timeout: a stopped or hung server would hold the caller forever. A thread
    /// that has not returned keeps its stream alive (its body holds it) and ends with the
    /// process.
    @discardableResult
    func waitForExit(seconds: Double) -> Bool {
        if hasExited.load(ordering: .acquiring) { return true }
        let deadline = monotonicSeconds() + seconds
        while !hasExited.load(ordering: .acquiring) {
            let left = deadline - monotonicSeconds()
            if left <= 0 { return false }
            exited.wait(seconds: min(left, 0.25))
        }
        return true
    }

    /// Called once, by the audio thread, as it ends with `error`.
    func record(_ error: ALSAError) {
        self.error = error
        failed.store(true, ordering: .releasing)
    }

    /// Throws the error the audio thread ended with, if any.
    func check() throws(ALSAError) {
        if failed.load(ordering: .acquiring), let error { throw error }
    }
}
