import Foundation
import Glibc
import ModemTestSupport

/// Runs the built `softmodem` binary against the private PulseAudio server.
enum Softmodem {
    /// The binary under test: ``CLI/binary`` (`SOFTMODEM_BIN`, else the newest build).
    static var binary: String { CLI.binary }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// A running softmodem whose stdout and stderr are collected to files.
    final class Running {
        let child: ChildProcess
        let stdoutURL: URL
        let stderrURL: URL
        private var stdinWrite: Int32

        /// Starts softmodem; with `tty`, its stdin and stdout are the terminal's slave side;
        /// with `stderrTTY`, its stderr is that terminal's.
        /// `environment`: instead of the server's (a test's own devices).
        init(
            _ arguments: [String], in dir: URL, tag: String, tty: PseudoTerminal? = nil,
            stderrTTY: PseudoTerminal? = nil, environment: [String: String]? = nil
        ) throws {
            stdoutURL = dir.appendingPathComponent("\(tag).out")
            stderrURL = dir.appendingPathComponent("\(tag).err")
            let out = open(stdoutURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let err = open(stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var fds: [Int32] = [0, 0]
            pipe(&fds)
            defer {
                close(out)
                close(err)
                close(fds[0])
            }
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            stdinWrite = fds[1]
            child = try ChildProcess(
                Softmodem.binary, arguments, environment: environment ?? Loopback.server?.environment ?? [:],
                stdin: tty?.slave ?? fds[0], stdout: tty?.slave ?? out, stderr: stderrTTY?.slave ?? err)
        }

        deinit {
            closeStdin()
            if child.isRunning {
                child.signal(SIGKILL)
                child.wait(timeout: 1)
            }
        }

        func send(_ data: Data) {
            data.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let n = write(stdinWrite, raw.baseAddress! + done, raw.count - done)
                    if n <= 0 { return }
                    done += n
                }
            }
        }
        func closeStdin() {
            if stdinWrite >= 0 {
                close(stdinWrite)
                stdinWrite = -1
            }
        }
        var stdout: Data { (try? Data(contentsOf: stdoutURL)) ?? Data() }
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
        var pid: pid_t { child.pid }
        var isRunning: Bool { child.isRunning }
        func signal(_ sig: Int32) { child.signal(sig) }

        @discardableResult
        func wait(timeout: Double) -> Int32 { child.wait(timeout: timeout) }
    }

    /// Runs to completion with `stdin` and returns status and output.
    static func run(
        _ arguments: [String], stdin: Data = Data(), timeout: Double = 60, environment: [String: String]? = nil
    ) throws -> Result {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try Running(arguments, in: dir, tag: "run", environment: environment)
        p.send(stdin)
        p.closeStdin()
        let status = p.wait(timeout: timeout)
        return Result(status: status, stdout: p.stdout, stderr: p.stderr)
    }

    static func temporaryDirectory() throws -> URL { try CLI.temporaryDirectory() }

    /// Polls `condition` every 20 ms until it holds or `timeout` seconds pass.
    static func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Waits for a live command's `-v` capture line, then a little longer: the line is
    /// printed when the device opens, and the sound server delivers audio a moment later,
    /// so a burst sent at once could lose its first character.
    static func waitUntilCapturing(_ processes: Running..., timeout: Double = 5) -> Bool {
        let open = waitUntil(timeout: timeout) {
            processes.allSatisfy { $0.stderr.contains("\(Loopback.device): capture") }
        }
        usleep(400_000)
        return open
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> Data { CLI.randomBytes(count, seed: seed) }
}
