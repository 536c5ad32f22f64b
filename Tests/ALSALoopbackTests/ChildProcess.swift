import Foundation
import Glibc

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Foundation's `Process` reaps children from a SIGCHLD source that these long-running,
/// signal-heavy tests (SIGSTOP/SIGCONT, a server child) left stuck here, so the suite spawns
/// and waits for its children itself.
final class ChildProcess {
    let pid: pid_t
    private var status: Int32?

    /// Starts `path` with `arguments`, the given environment, and the three descriptors as
    /// its stdin, stdout and stderr.
    init(
        _ path: String, _ arguments: [String], environment: [String: String], stdin: Int32, stdout: Int32, stderr: Int32
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The runner blocks and ignores signals its children should see normally.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL) }
        pid = child
    }

    var isRunning: Bool {
        if status != nil { return false }
        var s: Int32 = 0
        let r = waitpid(pid, &s, WNOHANG)
        if r == pid {
            status = s
            return false
        }
        return r == 0
    }

    /// Exit status (128 + signal when killed), waiting at most `timeout` seconds, then
    /// SIGKILL: a hang fails the test instead of blocking the suite.
    @discardableResult
    func wait(timeout: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var s: Int32 = 0
            waitpid(pid, &s, 0)
            status = s
        }
        let s = status ?? 0
        return (s & 0x7f) == 0 ? (s >> 8) & 0xff : 128 + (s & 0x7f)
    }

    func signal(_ sig: Int32) { if status == nil { kill(pid, sig) } }
}
