import Foundation
import Glibc

/// A private PulseAudio server for the loopback tests: a null sink (44.1 kHz unless asked) as the
/// default sink, its monitor as the default source, reachable only through a socket in a
/// fresh temporary directory. The ALSA device `pulse` (libasound2-plugins) then plays into
/// the null sink in real time, and capturing from it records what was played.
final class PulseServer: SoundServer, @unchecked Sendable {  // used by one serialized suite
    let directory: URL
    var home: URL { directory }
    let device = "pulse"
    let devices = ["pulse"]
    let socket: String
    private let process: ChildProcess

    /// Environment for child processes: points libpulse (and so ALSA's pulse plugin) at this
    /// server and nowhere else.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PULSE_SERVER"] = "unix:" + socket
        env["PULSE_RUNTIME_PATH"] = directory.appendingPathComponent("runtime").path
        env["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("runtime").path
        env["HOME"] = directory.path  // cookie and config files land here, not in the real home
        env["PULSE_COOKIE"] = directory.appendingPathComponent("cookie").path
        return env
    }

    private init(directory: URL, socket: String, process: ChildProcess) {
        self.directory = directory
        self.socket = socket
        self.process = process
    }

    /// Starts the server with its null sink at `rate` Hz, or returns nil (after printing
    /// why) when it cannot run here.
    static func start(rate: Int = 44_100) -> PulseServer? {
        // A child that exits early must not kill the test runner when we write its stdin.
        signal(SIGPIPE, SIG_IGN)
        guard let pulseaudio = which("pulseaudio") else {
            print("ALSALoopbackTests skipped: pulseaudio is not installed (make deps installs it)")
            return nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "softmodem-pulse-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let runtime = dir.appendingPathComponent("runtime")
        try? FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let socket = dir.appendingPathComponent("native").path
        let script = """
            load-module module-null-sink sink_name=loopback rate=\(rate) channels=1
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket)
            set-default-sink loopback
            set-default-source loopback.monitor
            """
        let config = dir.appendingPathComponent("loopback.pa")
        do { try script.write(to: config, atomically: true, encoding: .utf8) } catch {
            print("ALSALoopbackTests skipped: cannot write \(config.path): \(error)")
            return nil
        }
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path
        env["XDG_RUNTIME_DIR"] = runtime.path
        env["PULSE_RUNTIME_PATH"] = runtime.path
        let logPath = dir.appendingPathComponent("pulseaudio.log").path
        let logFD = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let nullFD = open("/dev/null", O_RDWR)
        defer {
            close(logFD)
            close(nullFD)
        }
        let process: ChildProcess
        do {
            // -n: no default.pa; --system=false lets root run a per-user server (it warns).
            // The idle timeout only matters if the runner dies without stopping the server:
            // it then exits by itself instead of lingering. Ten minutes: the kernel-rules tests leave
            // the server idle for minutes, and a server gone mid-suite fails every test after them.
            process = try ChildProcess(
                pulseaudio,
                [
                    "--daemonize=no", "--system=false", "--exit-idle-time=600", "--disallow-exit",
                    "--use-pid-file=false", "--log-target=stderr", "-n", "-F", config.path,
                ],
                environment: env, stdin: nullFD, stdout: nullFD, stderr: logFD)
        } catch {
            print("ALSALoopbackTests skipped: cannot run pulseaudio: \(error)")
            return nil
        }
        let server = PulseServer(directory: dir, socket: socket, process: process)
        let log = URL(fileURLWithPath: logPath)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !process.isRunning { break }
            if FileManager.default.fileExists(atPath: socket) {
                // The socket appears once module-native-protocol-unix listens; the modules
                // before it (the sink) are loaded by then.
                return server
            }
            usleep(50_000)
        }
        let why =
            (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").last.map(String.init) ?? "no log"
        print("ALSALoopbackTests skipped: pulseaudio did not start (\(why))")
        server.stop()
        return nil
    }

    func pause() { process.signal(SIGSTOP) }
    func resume() { process.signal(SIGCONT) }

    func stop() {
        if process.isRunning {
            process.signal(SIGCONT)
            process.signal(SIGTERM)
            process.wait(timeout: 5)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
