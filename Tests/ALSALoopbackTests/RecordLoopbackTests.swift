import Foundation
import Testing

/// `rx --record`: what the live input captured is written to a WAV file while decoding,
/// and that file decodes and inspects to the same bytes afterwards. Part of the suite that
/// owns the sound server: a suite of its own would start and stop the server while the
/// others use it.
extension LoopbackTests {
    @Test func recordingDecodesAndInspectsToWhatRxPrinted() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("session.wav").path
        let text = Data("recorded for inspect\n".utf8)
        let rx = try Softmodem.Running(
            [
                "rx", "--device", Loopback.device, "--latency", Loopback.transferLatency, "--count", "\(text.count)",
                "--duration", "20",
                "--record", wav, "-v",
            ], in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        let tx = try Softmodem.run(
            ["tx", "--device", Loopback.device, "--latency", Loopback.transferLatency], stdin: text, timeout: 20)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        #expect(rx.stdout == text, "\(rx.stderr)")
        let decoded = try Softmodem.run(["decode", wav])
        #expect(decoded.stdout == text, "\(decoded.stderr)")
        let report = try Softmodem.run(["inspect", "--profile", "softmodem-1225", wav, "-o", "-"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(String(decoding: report.stdout, as: UTF8.self).contains("recorded for inspect"))
    }

    @Test func recordToStdoutIsRefused() throws {
        let r = try Softmodem.run(["rx", "--device", Loopback.device, "--record", "-", "--duration", "1"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--record"))
    }
}
