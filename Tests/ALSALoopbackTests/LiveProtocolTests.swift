import Foundation
import Glibc
import Testing

/// rx/tx --protocol and the live reliable link (send/receive --device) over the loopback.
/// An extension, so these run inside the serialized suite that owns the sound server.
extension LoopbackTests {
    @Test(arguments: [
        (
            ["--protocol", "pin", "--pin", "13", "--state", "on"], "pin",
            ["\"pin\":13", "\"state\":1", "\"raw\":\"0d01\""]
        ),
        (
            ["--protocol", "motor", "--steer=-200", "--accel", "90", "--headlights"], "motor",
            ["\"steer\":-200", "\"accel\":90", "\"headlights\":true"]
        ),
        (["--protocol", "line", "--text", "hello board"], "line", ["hello board"]),
    ])
    func txProtocolToRxProtocolPrintsTheParsedMessage(txArguments: [String], proto: String, expected: [String]) throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try Softmodem.Running(
            [
                "rx", "--device", Loopback.device, "--protocol", proto, "--json", "--count", "1", "--duration", "15",
                "-v",
            ],
            in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        let tx = try Softmodem.run(["tx", "--device", Loopback.device] + txArguments, timeout: 15)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        let lines = rx.stdoutText.split(separator: "\n")
        #expect(lines.count == 1, "\(rx.stdoutText) \(rx.stderr)")
        let line = lines.first.map(String.init) ?? ""
        #expect(line.hasPrefix("{\"time\":") && line.contains("\"protocol\":\"\(proto)\""), "\(line)")
        for field in expected { #expect(line.contains(field), "\(line)") }
    }

    @Test func liveSendReceiveDeliversAFileExactly() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("received")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("payload.bin")
        let payload = Softmodem.randomBytes(200, seed: 11)
        try payload.write(to: file)
        let receiver = try Softmodem.Running(
            ["receive", out.path, "--device", Loopback.device, "--timeout", "110", "-v"], in: dir, tag: "receive")
        #expect(Softmodem.waitUntil(timeout: 5) { receiver.stderr.contains("\(Loopback.device): playback") })
        let sender = try Softmodem.run(
            ["send", file.path, "--device", Loopback.device, "--timeout", "110", "-v"], timeout: 120)
        #expect(sender.status == 0, "\(sender.stderr)")
        #expect(receiver.wait(timeout: 20) == 0, "\(receiver.stderr)")
        let got = try? Data(contentsOf: out.appendingPathComponent("payload.bin"))
        #expect(got == payload, "\(receiver.stderr)")
        let summary = sender.stderr.split(separator: "\n").first { $0.hasPrefix("payload.bin:") } ?? ""
        print("live link: \(summary)")
        // 200 bytes of content plus the file header message.
        let counts = summary.split(separator: " ").compactMap { Int($0) }
        #expect(counts.count >= 2 && counts[0] == counts[1] && counts[0] > 200, "\(sender.stderr)")
    }

    @Test func liveSendWithoutAReceiverTimesOut() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("x.bin")
        try Data("abc".utf8).write(to: file)
        let r = try Softmodem.run(["send", file.path, "--device", Loopback.device, "--timeout", "2"], timeout: 15)
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("is `softmodem receive DIR --device ...` running at the far end?\n"), "\(r.stderr)")
        #expect(r.stderr.contains("x.bin: 0 of "), "\(r.stderr)")
    }

    @Test(arguments: [
        ["send", "/etc/hostname", "--device", "nosuch"],
        ["receive", "/tmp", "--device", "nosuch"],
    ])
    func liveLinkDeviceErrorIsOneLine(arguments: [String]) throws {
        let r = try Softmodem.run(arguments, timeout: 10)
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix("softmodem: nosuch: no such ") && r.stderr.contains("available devices: "), "\(r.stderr)"
        )
    }
}
