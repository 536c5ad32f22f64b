import Foundation
import Glibc

/// Noise injected into the loop: a third process playing into the same null sink, so every
/// bridge hears the modem signals with the noise added. Bursts of white noise, band-limited
/// to the modem's tones (4-8.5 kHz), `burst` seconds long every `period` seconds: each one
/// garbles the characters it falls on, and the audio between bursts stays clean. sox makes
/// the sound file and aplay plays it (both installed by `make deps`).
final class NoiseSource {
    private let player: ChildProcess

    /// Starts playing, or returns nil (after printing why) when sox or aplay is missing.
    init?(in dir: URL, level dBFS: Double, burst: Double, period: Double, seconds: Int, environment: [String: String]) {
        guard let sox = PulseServer.which("sox"), let aplay = PulseServer.which("aplay") else {
            print("noise test skipped: sox and aplay are not installed (make deps installs them)")
            return nil
        }
        let one = dir.appendingPathComponent("noise-burst.wav").path
        let file = dir.appendingPathComponent("noise.wav").path
        let null = open("/dev/null", O_RDWR)
        defer { close(null) }
        func run(_ path: String, _ arguments: [String]) -> Bool {
            guard
                let p = try? ChildProcess(
                    path, arguments, environment: environment, stdin: null, stdout: null, stderr: null)
            else { return false }
            return p.wait(timeout: 30) == 0
        }
        guard
            run(
                sox,
                [
                    "-n", "-r", "44100", "-c", "1", "-b", "16", one, "synth", String(burst), "whitenoise", "sinc",
                    "4000-8500",
                    "norm", String(dBFS), "pad", "0", String(period - burst),
                ]),
            run(sox, [one, file, "repeat", String(Int(Double(seconds) / period))]),
            let player = try? ChildProcess(
                aplay, ["-q", "-D", Loopback.device, file], environment: environment, stdin: null, stdout: null,
                stderr: null)
        else {
            print("noise test skipped: sox or aplay failed")
            return nil
        }
        self.player = player
    }

    var isPlaying: Bool { player.isRunning }

    func stop() {
        player.signal(SIGTERM)
        player.wait(timeout: 5)
    }

    deinit { if player.isRunning { stop() } }
}
