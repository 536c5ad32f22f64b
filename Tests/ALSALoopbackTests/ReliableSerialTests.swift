import Foundation
import Glibc
import ModemTestSupport
import Testing

/// `serial --reliable` over the null-sink loopback, with noise injected into the loop: two
/// bridges on one sink (each hears the other, itself and the noise), and a program that only
/// knows serial ports on both ends.
extension LoopbackTests {
    /// The first integer before `label` in a bridge's `-v` summary, e.g. "47 damaged packets".
    static func count(_ label: String, in text: String) -> Int? {
        guard let range = text.range(of: " \(label)", options: .backwards) else { return nil }
        return Int(text[..<range.lowerBound].split(separator: " ").last ?? "")
    }

    @Test func reliableSerialBridgesCarryKilobytesEachWayExactlyThroughNoise() throws {
        guard Self.pyserialAvailable, let server = Loopback.server else { return }
        // 2 KB each way on PulseAudio, 512 bytes on PipeWire: the link code is the same, the
        // stack's path is what the second pass proves, and 2 KB there took 326 s of a
        // `make test` that must stay short with one-packet bursts (75 s at 512 bytes now).
        let bytes = LiveStack.current == .pipewire ? 512 : 2048
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 50 ms of noise at -1 dBFS every 2.3 s against our signal at -10 dBFS: each burst of
        // noise garbles the characters it falls on (measured: 30-50 damaged packets over the
        // exchange), the rest of the time the loop is clean.
        guard
            let noise = NoiseSource(
                in: dir, level: -1, burst: 0.05, period: 2.3, seconds: 600, environment: server.environment)
        else { return }
        defer { noise.stop() }
        let linkA = dir.appendingPathComponent("ttyA").path
        let linkB = dir.appendingPathComponent("ttyB").path
        let options = ["--device", Loopback.device, "--reliable", "--amplitude=-10", "-v"]
        let a = try Softmodem.Running(["serial", "--link", linkA] + options, in: dir, tag: "a")
        let b = try Softmodem.Running(["serial", "--link", linkB] + options, in: dir, tag: "b")
        #expect(
            Softmodem.waitUntil(timeout: 8) {
                a.stderr.contains("reliable link: output path delay")
                    && b.stderr.contains("reliable link: output path delay")
            },
            "\(a.stderr)\n--- b:\n\(b.stderr)")

        let (status, output) = try Self.exchange(
            linkA, linkB, bytes: bytes, seed: 11, seconds: 240, in: dir, environment: server.environment, timeout: 540,
            reliable: true)
        print("reliable serial exchange through noise: \(output)")
        #expect(noise.isPlaying, "the noise must last the whole exchange")
        Self.expectExact(status, output, bytes: bytes, a, b)
        // The program is done once B has the last line; A's acknowledgement of it may still
        // be lost to a noise burst and need a retransmission or two. On a loaded machine 8 s
        // was once too short: the exchange was exact, but 175 of B's bytes were still waiting
        // for their acknowledgement (round trips of 1.2 s, two timeouts).
        usleep(15_000_000)
        Self.stopCleanly(a, b)
        let summaries = [a.stderr, b.stderr].compactMap {
            $0.split(separator: "\n").last { $0.contains("reliable link: ") }.map(String.init)
        }
        print("reliable serial bridges:\n" + summaries.joined(separator: "\n"))
        // The noise really damaged packets, and the link repaired it by retransmission.
        let damaged = summaries.compactMap { Self.count("damaged packets", in: $0) }.reduce(0, +)
        let retransmitted = summaries.compactMap { Self.count("retransmitted", in: $0) }.reduce(0, +)
        #expect(summaries.count == 2 && damaged > 0 && retransmitted > 0, "\(summaries)")
    }

    /// Alone on the loop, a reliable bridge hears only itself: its own packets and ACKs
    /// must not count as the far end's, so what a program wrote stays unacknowledged and
    /// the bridge reports it as lost when stopped.
    @Test func reliableSerialBridgeWithNoFarEndReportsTheLoss() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("ttyA").path
        let a = try Softmodem.Running(
            ["serial", "--device", Loopback.device, "--link", link, "--reliable", "-v"], in: dir, tag: "a")
        #expect(
            Softmodem.waitUntil(timeout: 8) { a.stderr.contains("reliable link: output path delay") }, "\(a.stderr)")
        let port = open(link, O_RDWR | O_NOCTTY)
        #expect(port >= 0)
        let line = Array("nobody hears this\r\n".utf8)
        #expect(write(port, line, line.count) == line.count)
        // Long enough for the packet, its echo and a retransmission or two.
        usleep(4_000_000)
        close(port)
        a.signal(SIGTERM)
        #expect(a.wait(timeout: 10) == 1, "\(a.stderr)")
        #expect(
            a.stderr.contains("softmodem: reliable link: \(line.count) bytes written were never acknowledged"),
            "\(a.stderr)")
        #expect((Self.count("echoed packets dropped", in: a.stderr) ?? 0) > 0, "\(a.stderr)")
    }
}
