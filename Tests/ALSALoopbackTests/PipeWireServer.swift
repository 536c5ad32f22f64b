import Foundation
import Glibc
import ModemTestSupport

/// A private PipeWire session for the loopback tests (`SOFTMODEM_LIVE_STACK=pipewire`):
/// pipewire, wireplumber and pipewire-pulse on a session bus of their own, with a mono null
/// sink as the default sink and its monitor as the default source, reached through the
/// pipewire-alsa plugin (`pipewire`, `default`) and through pipewire-pulse (`pulse`).
/// Fixtures/pipewire-session.sh starts and stops it; this class runs the script and hands
/// its environment to the children.
final class PipeWireServer: SoundServer, @unchecked Sendable {  // used by one serialized suite
    let directory: URL
    let environment: [String: String]
    var home: URL { directory.appendingPathComponent("home") }
    let device = "pipewire"
    let devices = ["pipewire", "pulse", "default"]

    private init(directory: URL, environment: [String: String]) {
        self.directory = directory
        self.environment = environment
    }

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/pipewire-session.sh").path
    }

    /// Starts the session with its graph and null sink at `rate` Hz, or returns nil (after
    /// printing why) when it cannot run here.
    static func start(rate: Int = 44_100) -> PipeWireServer? {
        signal(SIGPIPE, SIG_IGN)
        for program in ["pipewire", "wireplumber", "pipewire-pulse", "dbus-daemon"]
        where PulseServer.which(program) == nil {
            print("ALSALoopbackTests skipped: \(program) is not installed (make deps installs it)")
            return nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "softmodem-pw-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        // The session stops by itself if the runner dies without calling stop().
        env["SOFTMODEM_PIPEWIRE_WATCH_PID"] = "\(getpid())"
        let (status, out, err) = run(["start", dir.path, "\(rate)"], environment: env, timeout: 60)
        guard status == 0 else {
            print(
                "ALSALoopbackTests skipped: the PipeWire session did not start (\(err.isEmpty ? "exit \(status)" : err))"
            )
            _ = run(["stop", dir.path], environment: env, timeout: 20)
            try? FileManager.default.removeItem(at: dir)
            return nil
        }
        var environment = ProcessInfo.processInfo.environment
        // A PulseAudio server of the caller's must not be reached instead.
        environment["PULSE_SERVER"] = nil
        for line in out.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            environment[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return PipeWireServer(directory: dir, environment: environment)
    }

    /// The daemons' process ids, from the pid files the script keeps.
    private var daemons: [pid_t] {
        ["pipewire", "wireplumber", "pipewire-pulse"].compactMap { name in
            let file = directory.appendingPathComponent("pids/\(name).pid")
            return (try? String(contentsOf: file, encoding: .utf8)).flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
    }

    func pause() { for pid in daemons { kill(pid, SIGSTOP) } }
    func resume() { for pid in daemons { kill(pid, SIGCONT) } }

    func stop() {
        resume()
        _ = Self.run(["stop", directory.path], environment: ProcessInfo.processInfo.environment, timeout: 20)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the session script; returns its status, stdout and last stderr line.
    private static func run(_ arguments: [String], environment: [String: String], timeout: Double) -> (
        Int32, String, String
    ) {
        guard let bash = PulseServer.which("bash"),
            let dir = try? CLI.temporaryDirectory()
        else { return (-1, "", "bash or a temporary directory is missing") }
        defer { try? FileManager.default.removeItem(at: dir) }
        let outPath = dir.appendingPathComponent("out").path
        let errPath = dir.appendingPathComponent("err").path
        let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let null = open("/dev/null", O_RDWR)
        defer { [out, err, null].forEach { close($0) } }
        guard
            let child = try? ChildProcess(
                bash, [script] + arguments, environment: environment, stdin: null, stdout: out, stderr: err)
        else { return (-1, "", "cannot run bash") }
        let status = child.wait(timeout: timeout)
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let why = ((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "").split(separator: "\n").last
        return (status, text, why.map(String.init) ?? "")
    }
}
