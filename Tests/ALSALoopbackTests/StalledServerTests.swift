import Foundation
import Glibc
import Testing

/// A sound server that stops answering (SIGSTOP, as a hung server is): opening gives up
/// with one line within its limit or at a stop signal, a running capture that stops
/// delivering frames is one line within 3 s, and the serial bridge waits for it instead.
extension LoopbackTests {
    /// Runs `body` with the server stopped, and lets it go on afterwards whatever happens.
    private func withServerStopped(_ server: any SoundServer, _ body: () throws -> Void) rethrows {
        server.pause()
        defer {
            server.resume()
            usleep(300_000)
        }
        try body()
    }

    @Test func openingThroughAStoppedServerGivesUpWithOneLine() throws {
        guard let server = Loopback.server else { return }
        try withServerStopped(server) {
            let started = Date()
            let r = try Softmodem.run(["rx", "--device", Loopback.device, "--duration", "30"], timeout: 40)
            let elapsed = Date().timeIntervalSince(started)
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            // Either the open waits (the pulse plugin) and gives up after its 5 s, or it
            // returns and the capture delivers nothing (the watchdog's 2 s).
            #expect(
                r.stderr.contains("\(Loopback.device): no answer within 5 s while opening for capture")
                    || r.stderr.contains("\(Loopback.device): the capture delivered no audio for"), "\(r.stderr)")
            #expect(elapsed < 9, "gave up after \(elapsed) s")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func sigtermWhileTheServerIsStoppedEndsTheCommandAtOnce() throws {
        guard let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try withServerStopped(server) {
            let rx = try Softmodem.Running(["rx", "--device", Loopback.device, "--duration", "30"], in: dir, tag: "rx")
            usleep(1_000_000)
            let started = Date()
            rx.signal(SIGTERM)
            let status = rx.wait(timeout: 10)
            #expect(Date().timeIntervalSince(started) < 1.5, "\(rx.stderr)")
            // Stopped while opening (exit 1, one line) or, where the open returned, a clean stop.
            #expect(
                (status == 1 && rx.stderr.contains("stopped while waiting for the device to open"))
                    || (status == 0 && rx.stderr.isEmpty), "status \(status): \(rx.stderr)")
        }
    }

    @Test func aCaptureThatStopsDeliveringIsOneLineWithinThreeSeconds() throws {
        guard let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try Softmodem.Running(
            ["rx", "--device", Loopback.device, "--duration", "30", "-v"], in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        usleep(500_000)
        try withServerStopped(server) {
            let started = Date()
            let status = rx.wait(timeout: 10)
            #expect(Date().timeIntervalSince(started) < 3.5, "\(rx.stderr)")
            #expect(status == 1, "\(rx.stderr)")
            let last = rx.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect(
                last.hasPrefix("softmodem: \(Loopback.device): the capture delivered no audio for 2")
                    && last.contains("not even silence") && last.contains("check"), "\(rx.stderr)")
            #expect(!rx.stderr.contains("bytes,"), "no summary after a failure: \(rx.stderr)")
        }
    }

    @Test func theSerialBridgeWaitsForTheCaptureToComeBack() throws {
        guard let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("tty").path
        let bridge = try Softmodem.Running(
            ["serial", "--device", Loopback.device, "--link", link, "-v"], in: dir, tag: "serial")
        #expect(Softmodem.waitUntilCapturing(bridge))
        withServerStopped(server) {
            #expect(
                Softmodem.waitUntil(timeout: 4) { bridge.stderr.contains("not even silence") },
                "\(bridge.stderr)")
            #expect(bridge.child.isRunning, "\(bridge.stderr)")
            #expect(bridge.stderr.contains("; waiting for it"), "\(bridge.stderr)")
        }
        #expect(
            Softmodem.waitUntil(timeout: 5) { bridge.stderr.contains("capture resumed after") }, "\(bridge.stderr)")
        bridge.signal(SIGTERM)
        #expect(bridge.wait(timeout: 10) == 0, "\(bridge.stderr)")
    }
}
