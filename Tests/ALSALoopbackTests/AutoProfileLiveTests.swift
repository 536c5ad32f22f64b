import Foundation
import Glibc
import ModemTestSupport
import Testing

/// `--profile auto` on the live receiving commands, over the null-sink loopback: the
/// receiver finds tones and bit rate from the signal; a bridge sends with `--send-profile`.
extension LoopbackTests {
    @Test func rxWithAutoDecodesWhatTxSendsAtAnotherProfile() throws {
        let payload = Softmodem.randomBytes(600, seed: 23)
        let r = try Self.transferOnceMoreAfterReportedLoss(
            "rx auto", payload, rxOptions: ["--profile", "auto"], txOptions: ["--profile", "softmodem-2450"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.bytes == payload, "\(r.bytes.count) bytes: \(r.stderr)")
        #expect(r.stderr.contains("rx: auto"), "\(r.stderr)")
    }

    /// Bridge A receives with auto and sends with --send-profile; bridge B names the profile.
    @Test func serialBridgeWithAutoReceiveExchangesBytesBothWays() throws {
        guard Self.pyserialAvailable, let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let linkA = dir.appendingPathComponent("ttyA").path
        let linkB = dir.appendingPathComponent("ttyB").path
        // Loopback.transferLatency, as in the other serial tests: 10 ms periods meet the sound server's
        // occasional scheduling glitch on a loaded two-core VM.
        let a = try Softmodem.Running(
            [
                "serial", "--device", Loopback.device, "--latency", Loopback.transferLatency, "--link", linkA,
                "--profile", "auto",
                "--send-profile", "softmodem-2450", "-v",
            ],
            in: dir, tag: "a")
        let b = try Softmodem.Running(
            [
                "serial", "--device", Loopback.device, "--latency", Loopback.transferLatency, "--link", linkB,
                "--profile",
                "softmodem-2450", "-v",
            ], in: dir, tag: "b")
        #expect(Softmodem.waitUntilCapturing(a, b))
        // A second more, as in serialBridgesCarryTwoKilobytesEachWay...: the first transfer
        // starts at once, and a capture can begin later than its opening line (CI lost the
        // first 20 of 512 bytes here, in both captures alike).
        usleep(1_000_000)
        #expect(a.stderr.contains("on \(Loopback.device), auto, sending softmodem-2450"), "\(a.stderr)")
        try Self.exchangeExactly(
            linkA, linkB, bytes: 512, seed: 13, seconds: 30, in: dir, environment: server.environment,
            timeout: 120, a, b)
        Self.stopCleanly(a, b)
    }
}
