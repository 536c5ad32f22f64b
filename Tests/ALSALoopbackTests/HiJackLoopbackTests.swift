import Foundation
import Glibc
import Testing

/// HiJack over the null-sink loopback: `tx --profile hijack` plays stereo (left data, right
/// power tone); the mono sink mixes both channels, so `rx --profile hijack` must reject the
/// power tone while it decodes the phone -> board Manchester (1378.125 baud).
extension LoopbackTests {
    @Test(arguments: [
        ([String](), [String]()),
        // Inverted data under an audible power tone, and the decoder told the host rate.
        (["--invert", "--power-tone", "15000", "--byte-period", "30"], ["--baud", "1378.125"]),
    ])
    func hiJackTxToRxDeliversRandomBytesExactly(txOptions: [String], rxOptions: [String]) throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let payload = Softmodem.randomBytes(32, seed: 66)
        let rx = try Softmodem.Running(
            ["rx", "--device", Loopback.device, "--profile", "hijack", "--count", "32", "--duration", "15", "-v"]
                + rxOptions,
            in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        let tx = try Softmodem.run(
            ["tx", "--device", Loopback.device, "--profile", "hijack", "-v"] + txOptions, stdin: payload, timeout: 15)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(tx.stderr.contains("2 channel(s)") && tx.stderr.contains("tx: 32 bytes sent"), "\(tx.stderr)")
        #expect(tx.stderr.contains(" 0 frames of filler silence"), "power must not stop while sending: \(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        #expect(rx.stdout == payload, "\(rx.stderr)")
        let summary = rx.stderr.split(separator: "\n").last { $0.hasPrefix("rx: hijack") } ?? ""
        #expect(summary.contains("32 bytes, 0 parity errors, 0 framing errors"), "\(rx.stderr)")
        #expect(summary.contains(txOptions.contains("--invert") ? "inverted line" : "normal polarity"), "\(rx.stderr)")
    }

    @Test func hiJackRxHexPrintsAMessageOnOneLine() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try Softmodem.Running(
            ["rx", "--device", Loopback.device, "--profile", "hijack", "--hex", "--count", "3", "--duration", "10"],
            in: dir, tag: "rx")
        usleep(800_000)  // quiet without -v: give the capture time to start
        let tx = try Softmodem.run(
            ["tx", "--device", Loopback.device, "--profile", "hijack", "--text", "Hi!"], timeout: 10)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        #expect(rx.stdoutText == "48 69 21\n", "\(rx.stderr)")
    }

    @Test func hiJackTermSendsTypedLinesAndSuppressesItsOwnEcho() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try Softmodem.Running(
            ["rx", "--device", Loopback.device, "--profile", "hijack", "--count", "11", "--duration", "10", "-v"],
            in: dir, tag: "rx")
        // --latency 100 (PipeWire's default) on every stack: with a buffer that long, term
        // once counted the device's buffer with the power tone it keeps queued and never sent.
        let term = try Softmodem.Running(
            ["term", "--device", Loopback.device, "--latency", "100", "--profile", "hijack", "-v"], in: dir, tag: "term"
        )
        #expect(Softmodem.waitUntilCapturing(rx, term))
        usleep(300_000)
        term.send(Data("hello term\n".utf8))
        #expect(rx.wait(timeout: 8) == 0, "\(rx.stderr)")
        #expect(rx.stdoutText == "hello term\n", "\(rx.stderr)")
        usleep(300_000)
        term.closeStdin()
        #expect(term.wait(timeout: 5) == 0, "\(term.stderr)")
        // The loopback plays our own line back: all of it is recognised as echo.
        #expect(term.stdout.isEmpty, "\(term.stderr)")
        #expect(term.stderr.contains("term: 0 bytes received, 11 echoed bytes suppressed"), "\(term.stderr)")
        #expect(term.stderr.contains(" 0 frames of filler silence"), "\(term.stderr)")
    }

    @Test func hiJackTermPrintsWhatItHears() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The sink mixes everything played: term's own idle line is kept silent so that
        // tx's line is the only data on the loopback (the two power tones just add).
        let term = try Softmodem.Running(
            ["term", "--device", Loopback.device, "--profile", "hijack", "--amplitude=-120", "-v"], in: dir, tag: "term"
        )
        #expect(Softmodem.waitUntilCapturing(term))
        usleep(300_000)
        let tx = try Softmodem.run(
            ["tx", "--device", Loopback.device, "--profile", "hijack", "--text", "to term"], timeout: 10)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(Softmodem.waitUntil(timeout: 3) { term.stdoutText == "to term" }, "\(term.stderr)")
        term.signal(SIGINT)
        #expect(term.wait(timeout: 5) == 0, "\(term.stderr)")
        #expect(term.stderr.contains("term: 7 bytes received, 0 echoed bytes suppressed"), "\(term.stderr)")
    }

    @Test func powerPlaysForItsDurationAndExits() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A receiver of the host signal hears nothing in the power tone alone.
        let rx = try Softmodem.Running(
            ["rx", "--device", Loopback.device, "--profile", "hijack", "--duration", "2", "-v"], in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        let start = Date()
        let r = try Softmodem.run(
            ["power", "--device", Loopback.device, "--rate", "44100", "--duration", "1", "-v"], timeout: 10)
        let elapsed = Date().timeIntervalSince(start)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(
            r.stderr.contains("power tone 22050 Hz") && r.stderr.contains("power: 44100 frames played"), "\(r.stderr)")
        #expect(elapsed >= 0.9, "played for \(elapsed) s")
        #expect(rx.wait(timeout: 5) == 0, "\(rx.stderr)")
        #expect(rx.stdout.isEmpty, "\(rx.stderr)")
        #expect(rx.stderr.contains("rx: hijack, 0 bytes, 0 parity errors, 0 framing errors"), "\(rx.stderr)")
    }

    @Test func powerStopsCleanlyOnSIGINT() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try Softmodem.Running(["power", "--device", Loopback.device, "-v"], in: dir, tag: "power")
        #expect(Softmodem.waitUntil(timeout: 5) { p.stderr.contains("\(Loopback.device): playback") })
        usleep(300_000)
        p.signal(SIGINT)
        #expect(p.wait(timeout: 5) == 0, "\(p.stderr)")
        #expect(p.stderr.contains("(interrupted)"), "\(p.stderr)")
    }

    @Test(arguments: [
        (["tx", "--profile", "hijack", "--device", "nosuch", "--text", "x"], "nosuch: no such playback device"),
        (["rx", "--profile", "hijack", "--device", "nosuch"], "nosuch: no such capture device"),
        (["power", "--device", "nosuch", "--duration", "1"], "nosuch: no such playback device"),
    ])
    func hiJackDeviceErrorsAreOneLine(arguments: [String], expected: String) throws {
        let r = try Softmodem.run(arguments, timeout: 10)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: " + expected), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}

extension LiveUsageTests {
    @Test(arguments: [
        (["power", "--rate", "44100", "--power-tone", "30000", "--duration", "1"], "--power-tone"),
        (["power", "--power-amplitude", "2", "--duration", "1"], "--power-amplitude must be between 0 and 1"),
        (["power", "--latency", "1", "--duration", "1"], "--latency must be 4 to 2000 ms"),
        (["tx", "--profile", "hijack", "--byte-period", "5", "--text", "x"], "byte period"),
        (["tx", "--profile", "hijack", "--baud", "5000", "--text", "x"], "baud"),
        (["tx", "--profile", "hijack", "--mark", "1000", "--text", "x"], "--mark and --space do not apply"),
        (["tx", "--invert", "--text", "x"], "need a HiJack profile"),
        (["rx", "--channel", "33"], "--channel must be 1 to 32"),
        (["rx", "--profile", "hijack", "--channel", "0"], "--channel must be 1 to 32"),
        (["rx", "--profile", "hijack", "--squelch", "5"], "--squelch does not apply"),
        (["rx", "--profile", "hijack", "--baud", "5000"], "baud"),
    ])
    func hiJackLiveOptionsRejectedWithOneLine(arguments: [String], expected: String) throws {
        let r = try Softmodem.run(arguments, timeout: 10)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: ") && r.stderr.contains(expected), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}

/// The later HiJack generations live: their packets from `tx --protocol` to `rx --protocol`,
/// a lab11 packet printed as soon as its pause has passed (not when the next one comes).
extension LoopbackTests {
    @Test(arguments: [
        ("hijack-lab11", ["--io", "analog-write", "--pin", "2", "--value", "4660"], "\"command\":\"analog-write\""),
        ("hijack-infinity", ["--data", "01dd05"], "\"payload\":\"01dd05\""),
    ])
    func laterGenerationPacketsTxToRx(profile: String, fields: [String], expected: String) throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try Softmodem.Running(
            [
                "rx", "--device", Loopback.device, "--profile", profile, "--protocol", profile, "--json", "--count",
                "1",
                "--duration", "10", "-v",
            ],
            in: dir, tag: "rx")
        #expect(Softmodem.waitUntilCapturing(rx))
        let tx = try Softmodem.run(
            ["tx", "--device", Loopback.device, "--profile", profile, "--protocol", profile] + fields, timeout: 10)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        #expect(rx.stdoutText.contains(expected), "\(rx.stdoutText) \(rx.stderr)")
    }
}
