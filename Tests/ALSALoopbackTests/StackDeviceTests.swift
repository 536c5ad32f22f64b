import Foundation
import Glibc
import Testing

/// The stack's other devices (``LiveStack/otherDevices``: on PipeWire, `pulse` through
/// pipewire-pulse and `default` through pipewire-alsa) carry what the suite's device does:
/// rx/tx exactly, the self-test's verdict, send/receive and two serial bridges. Shorter
/// payloads than the main tests: the paths are the same code, the devices are what differ.
extension LoopbackTests {
    @Test(arguments: LiveStack.current.otherDevices)
    func otherDeviceCarriesRxTxExactly(device: String) throws {
        let payload = Softmodem.randomBytes(1000, seed: 31)
        let r = try Self.transferOnceMoreAfterReportedLoss(
            "rx/tx on \(device)", payload, device: device, latency: "100")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.bytes == payload, "\(r.bytes.count) bytes: \(r.stderr)")
    }

    @Test(arguments: LiveStack.current.otherDevices)
    func otherDeviceLoopbackSelfTestIsOk(device: String) throws {
        let r = try Softmodem.run(["loopback", "--device", device, "--latency", "100", "--json"], timeout: 60)
        let report = (try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Any] ?? [:]
        #expect(r.status == 0, "\(r.stderr)")
        #expect(report["verdict"] as? String == "ok", "\(r.stderr)")
    }

    @Test(arguments: LiveStack.current.otherDevices)
    func otherDeviceCarriesSendAndReceiveExactly(device: String) throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("received")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("payload.bin")
        let payload = Softmodem.randomBytes(100, seed: 32)
        try payload.write(to: file)
        let receiver = try Softmodem.Running(
            ["receive", out.path, "--device", device, "--timeout", "110"], in: dir, tag: "receive")
        usleep(1_500_000)
        let sender = try Softmodem.run(["send", file.path, "--device", device, "--timeout", "110"], timeout: 120)
        #expect(sender.status == 0, "\(sender.stderr)")
        #expect(receiver.wait(timeout: 20) == 0, "\(receiver.stderr)")
        #expect((try? Data(contentsOf: out.appendingPathComponent("payload.bin"))) == payload, "\(receiver.stderr)")
    }

    @Test(arguments: LiveStack.current.otherDevices)
    func otherDeviceCarriesTwoSerialBridgesExactly(device: String) throws {
        guard Self.pyserialAvailable, let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let linkA = dir.appendingPathComponent("ttyA").path
        let linkB = dir.appendingPathComponent("ttyB").path
        let a = try Softmodem.Running(
            ["serial", "--device", device, "--latency", "100", "--link", linkA, "-v"], in: dir, tag: "a")
        let b = try Softmodem.Running(
            ["serial", "--device", device, "--latency", "100", "--link", linkB, "-v"], in: dir, tag: "b")
        #expect(
            Softmodem.waitUntil(timeout: 5) {
                a.stderr.contains("\(device): capture") && b.stderr.contains("\(device): capture")
            })
        usleep(400_000)
        try Self.exchangeExactly(
            linkA, linkB, bytes: 256, seed: 33, seconds: 40, in: dir, environment: server.environment,
            timeout: 150, a, b)
        Self.stopCleanly(a, b)
    }

    /// Every device of the stack names the plugin it goes through in `rx -v`, from the
    /// plugin itself: `default` reaches pipewire-alsa here and the PulseAudio plugin on a
    /// PulseAudio system, so the device's name cannot tell. The capture's lost-audio check by
    /// position is off through the PulseAudio plugin only (``CapturePositionCheck``).
    @Test(arguments: [Loopback.device] + LiveStack.current.otherDevices)
    func rxNamesThePluginTheDeviceGoesThrough(device: String) throws {
        let r = try Softmodem.run(["rx", "--device", device, "--duration", "0.5", "-v"], timeout: 20)
        #expect(r.status == 0, "\(r.stderr)")
        let plugin = device == "pulse" ? "PulseAudio" : "PipeWire"
        #expect(r.stderr.contains("frames, through the \(plugin) plugin"), "\(r.stderr)")
    }
}
