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

    @Test func reliableSerialBridgesCarryTwoKilobytesEachWayExactlyThroughNoise() throws {
        guard Self.pyserialAvailable, let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 50 ms of noise at -1 dBFS every 2.3 s against our signal at -10 dBFS: each burst of
        // noise garbles the characters it falls on (measured: 30-50 damaged packets over the
        // exchange), the rest of the time the loop is clean.
        guard let noise = NoiseSource(in: dir, level: -1, burst: 0.05, period: 2.3, seconds: 600, environment: server.environment) else { return }
        defer { noise.stop() }
        let linkA = dir.appendingPathComponent("ttyA").path, linkB = dir.appendingPathComponent("ttyB").path
        let options = ["--device", "pulse", "--reliable", "--amplitude=-10", "-v"]
        let a = try Softmodem.Running(["serial", "--link", linkA] + options, in: dir, tag: "a")
        let b = try Softmodem.Running(["serial", "--link", linkB] + options, in: dir, tag: "b")
        #expect(Softmodem.waitUntil(timeout: 8) { a.stderr.contains("reliable link: output path delay") && b.stderr.contains("reliable link: output path delay") },
                "\(a.stderr)\n--- b:\n\(b.stderr)")

        let (status, output) = try Self.exchange(linkA, linkB, bytes: 2048, seed: 11, seconds: 240, in: dir, server: server, timeout: 540)
        print("reliable serial exchange through noise: \(output)")
        #expect(noise.isPlaying, "the noise must last the whole exchange")
        Self.expectExact(status, output, bytes: 2048, a, b)
        Self.stopCleanly(a, b)
        let summaries = [a.stderr, b.stderr].compactMap { $0.split(separator: "\n").last { $0.contains("reliable link: ") }.map(String.init) }
        print("reliable serial bridges:\n" + summaries.joined(separator: "\n"))
        // The noise really damaged packets, and the link repaired it by retransmission.
        let damaged = summaries.compactMap { Self.count("damaged packets", in: $0) }.reduce(0, +)
        let retransmitted = summaries.compactMap { Self.count("retransmitted", in: $0) }.reduce(0, +)
        #expect(summaries.count == 2 && damaged > 0 && retransmitted > 0, "\(summaries)")
    }
}
