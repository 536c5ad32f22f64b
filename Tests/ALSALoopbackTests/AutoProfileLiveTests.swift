import Foundation
import Glibc
import ModemTestSupport
import Testing

/// `--profile auto` on the live receiving commands, over the null-sink loopback: the
/// receiver finds tones and bit rate from the signal; a bridge sends with `--send-profile`.
extension LoopbackTests {
    @Test func rxWithAutoDecodesWhatTxSendsAtAnotherProfile() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let payload = Softmodem.randomBytes(600, seed: 23)
        let rx = try Softmodem.Running(["rx", "--device", "pulse", "--latency", "80", "--profile", "auto", "--count", "600",
                                        "--duration", "30", "-v"], in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        let tx = try Softmodem.run(["tx", "--device", "pulse", "--latency", "80", "--profile", "softmodem-2450"], stdin: payload, timeout: 30)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        #expect(rx.stdout == payload, "\(rx.stdout.count) bytes: \(rx.stderr)")
        #expect(rx.stderr.contains("rx: auto"), "\(rx.stderr)")
    }

    /// Bridge A receives with auto and sends with --send-profile; bridge B names the profile.
    @Test func serialBridgeWithAutoReceiveExchangesBytesBothWays() throws {
        guard Self.pyserialAvailable, let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let linkA = dir.appendingPathComponent("ttyA").path, linkB = dir.appendingPathComponent("ttyB").path
        let a = try Softmodem.Running(["serial", "--device", "pulse", "--link", linkA, "--profile", "auto", "--send-profile", "softmodem-2450", "-v"],
                                      in: dir, tag: "a")
        let b = try Softmodem.Running(["serial", "--device", "pulse", "--link", linkB, "--profile", "softmodem-2450", "-v"], in: dir, tag: "b")
        #expect(Softmodem.waitUntilCapturing(a, b))
        #expect(a.stderr.contains("on pulse, auto, sending softmodem-2450"), "\(a.stderr)")
        let log = dir.appendingPathComponent("exchange.log").path
        let logFD = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644), null = open("/dev/null", O_RDONLY)
        defer { close(logFD); close(null) }
        let exchange = try ChildProcess(Self.python, [Self.script, linkA, linkB, "512", "13", "30"], environment: server.environment,
                                        stdin: null, stdout: logFD, stderr: logFD)
        let status = exchange.wait(timeout: 120)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output)\n--- a:\n\(a.stderr)\n--- b:\n\(b.stderr)")
        #expect(output.contains("A->B: sent 512, received 512, equal True, echo 0"), "\(output)")
        #expect(output.contains("B->A: sent 512, received 512, equal True, echo 0"), "\(output)")
        a.signal(SIGTERM)
        b.signal(SIGTERM)
        #expect(a.wait(timeout: 10) == 0, "\(a.stderr)")
        #expect(b.wait(timeout: 10) == 0, "\(b.stderr)")
    }
}
