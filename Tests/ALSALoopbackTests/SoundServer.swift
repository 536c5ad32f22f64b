import Foundation
import Glibc
import Synchronization
import Testing

/// A private sound stack the live suite plays and records through, with no sound card:
/// what is played to its device comes back on its capture in real time.
protocol SoundServer: AnyObject, Sendable {
    /// The private HOME its clients get: a test's ALSA devices (`.asoundrc`) go here.
    var home: URL { get }
    /// Environment for child processes: reaches this stack and nothing else.
    var environment: [String: String] { get }
    /// The ALSA device the suite's tests go through.
    var device: String { get }
    /// Every ALSA device of this stack that the per-device targets cover (``device`` first).
    var devices: [String] { get }
    /// Stops the server's processes (SIGSTOP), as a hung server would be.
    func pause()
    /// Lets paused processes go on (SIGCONT).
    func resume()
    func stop()
}

/// Which stack a run of the live suite uses: `SOFTMODEM_LIVE_STACK` = `pulseaudio` (the
/// default) or `pipewire`. The Makefile runs the suite once with each.
enum LiveStack: String {
    case pulseaudio, pipewire

    static var current: LiveStack {
        LiveStack(rawValue: ProcessInfo.processInfo.environment["SOFTMODEM_LIVE_STACK"] ?? "") ?? .pulseaudio
    }

    /// The device the suite goes through on this stack (known before the server starts,
    /// for parameterized tests' arguments).
    var device: String { self == .pulseaudio ? "pulse" : "pipewire" }

    /// The stack's other devices users open (the suite's targets cover them too): on
    /// PipeWire, `pulse` through pipewire-pulse and `default` through pipewire-alsa.
    var otherDevices: [String] { self == .pulseaudio ? [] : ["pulse", "default"] }

    /// Starts this stack with its sink (and graph) at `rate` Hz, or returns nil after
    /// printing why it cannot run here.
    func start(rate: Int = 44_100) -> (any SoundServer)? {
        switch self {
        case .pulseaudio: return PulseServer.start(rate: rate)
        case .pipewire: return PipeWireServer.start(rate: rate)
        }
    }
}

/// The server shared by the loopback suite: started when the suite begins (not when the
/// test plan is built, so a parallel run cannot leave it idle), stopped when it ends.
enum Loopback {
    /// The running server, if any: set around the serialized suite, read by every live
    /// suite (the others run beside it), so behind a lock.
    static var server: (any SoundServer)? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
    private static let current = Mutex<(any SoundServer)?>(nil)

    /// The ALSA device the tests go through: `pulse` on PulseAudio, `pipewire` on PipeWire.
    static var device: String { server?.device ?? LiveStack.current.device }

    /// `--latency` for the byte-exact transfers: PipeWire's default (100), and 80 on
    /// PulseAudio, where a fresh capture at 100 lost the first bytes of the first burst in
    /// 2 of 3 full passes (the start-up loss in docs/live-audio.md, "Known problems") and
    /// 80 had passed every pass before.
    static var transferLatency: String { LiveStack.current == .pipewire ? "100" : "80" }

    /// Suite trait: starts the server and runs the suite, then stops it. When the server
    /// cannot start, the reason is printed and the suite's tests are skipped, not failed.
    struct Server: SuiteTrait, TestScoping {
        var isRecursive: Bool { false }
        func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void)
            async throws
        {
            guard let started = LiveStack.current.start() else { return }
            Loopback.server = started
            defer {
                started.stop()
                Loopback.server = nil
            }
            try await function()
        }
    }
}
