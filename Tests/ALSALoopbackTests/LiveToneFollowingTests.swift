import Foundation
import Glibc
import Testing

/// `rx` follows an off-frequency sender as `decode` does (one observer policy for files and
/// live capture): a board 2 % slow is measured and retuned to between its bursts.
extension LoopbackTests {
    @Test func rxRetunesToASenderTwoPercentSlow() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try Softmodem.Running(
            ["rx", "--device", Loopback.device, "--profile", "softmodem-1225", "--duration", "30", "-v"],
            in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        // Tones and bit rate 2 % slow, as a board on a slow clock sends them.
        let slow = ["--baud", "1200.5", "--mark", "7203", "--space", "4802"]
        var last = Data()
        for burst in 0..<2 {
            let payload = Softmodem.randomBytes(120, seed: UInt64(70 + burst))
            let tx = try Softmodem.run(
                ["tx", "--device", Loopback.device, "--latency", Loopback.transferLatency] + slow, stdin: payload,
                timeout: 20)
            #expect(tx.status == 0, "\(tx.stderr)")
            last = payload
        }
        // Let the last burst's gap pass, then stop rx (SIGTERM: it reports and exits).
        _ = Softmodem.waitUntil(timeout: 1.5, { !rx.isRunning })
        rx.signal(SIGTERM)
        _ = rx.wait(timeout: 5)
        #expect(rx.stderr.contains("retuned to the sender's measured tones"), "\(rx.stderr)")
        // The burst after the retune, exact (the first may lose a device buffer to a fresh
        // PulseAudio stream: docs/live-audio.md "Known problems").
        #expect(rx.stdout.suffix(last.count) == last, "\(rx.stderr)")
    }
}
