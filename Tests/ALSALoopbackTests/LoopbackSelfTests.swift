import Foundation
import Testing

/// `softmodem loopback` over the sound server's null sink: what is played comes back
/// sample for sample, so the self-test must find the path clean; through a sink at 48 kHz
/// opened at 44.1 kHz the server converts both ways, which it must report, and without
/// `--rate` such a PipeWire graph is opened at 48 kHz. An extension, so
/// these run inside the serialized suite that owns the sound server.
extension LoopbackTests {
    /// Runs the self-test and parses its JSON report.
    /// A stream gap on a loaded machine (two in one run lose the timing, and the self-test
    /// rightly refuses to judge) is not what these tests measure: such a run is repeated
    /// as the tool advises, with a larger buffer, at most twice.
    static func loopbackSelfTest(_ extra: [String] = []) throws -> (Softmodem.Result, [String: Any]) {
        var r = try Softmodem.run(
            ["loopback", "--device", Loopback.device, "--latency", "100", "--json"] + extra, timeout: 60)
        for latency in ["200", "400"] where r.status != 0 && r.stderr.contains("the timing is lost") {
            r = try Softmodem.run(
                ["loopback", "--device", Loopback.device, "--latency", latency, "--json"] + extra, timeout: 90)
        }
        let json = (try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Any]
        #expect(json != nil, "no JSON report: \(r.stderr)")
        return (r, json ?? [:])
    }

    @Test func loopbackSelfTestOnTheIdealPathFindsLatencyPassesTheBytesAndRaisesNoAlarm() throws {
        let (r, report) = try Self.loopbackSelfTest(["--hijack"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(report["signal_returned"] as? Bool == true, "\(r.stderr)")
        let latency = report["latency_seconds"] as? Double ?? -1
        #expect((0..<0.6).contains(latency), "\(r.stderr)")
        #expect(abs(report["drift_ppm"] as? Double ?? 99) < 5)
        #expect((report["resampler"] as? [String: Any])?["detected"] as? Bool == false, "\(r.stderr)")
        #expect((report["agc"] as? [String: Any])?["detected"] as? Bool == false, "\(r.stderr)")
        #expect(report["hum_hz"] is NSNull)
        #expect((report["notches_hz"] as? [Any])?.isEmpty == true)
        #expect(report["max_clean_output_dbfs"] as? Double == -1)
        let bytes = report["bytes"] as? [[String: Any]] ?? []
        // Every built-in FSK profile (softmodem-126-8mhz included) and HiJack.
        #expect(bytes.count == 10, "\(r.stderr)")
        for b in bytes { #expect(b["byte_errors"] as? Int == 0, "\(b)") }
        #expect(report["verdict"] as? String == "ok", "\(r.stderr)")
        // The human table goes to stderr, with the verdict.
        #expect(r.stderr.contains("loopback: \(Loopback.device) at 44100 Hz") && r.stderr.contains("verdict: "))
        // Not a terminal: no progress line.
        #expect(!r.stderr.contains("\r"))
    }

    /// `--hijack-profile`: the later HiJack generations' byte tests, in their own line codes
    /// (a lab11 burst is one checked packet), come back exact over the server's loopback.
    @Test(arguments: ["hijack-infinity", "hijack-lab11"])
    func loopbackSelfTestBytesEachHiJackGeneration(profile: String) throws {
        let (r, report) = try Self.loopbackSelfTest(["--hijack-profile", profile])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = report["bytes"] as? [[String: Any]] ?? []
        let hijack = bytes.first { $0["modem"] as? String == profile }
        #expect(hijack?["byte_errors"] as? Int == 0 && hijack?["received"] as? Int == 8, "\(bytes)")
    }

    @Test func loopbackSelfTestReportsTheConverterOfA48kHzSinkOpenedAt44kHz() throws {
        guard let server = LiveStack.current.start(rate: 48_000) else { return }
        let previous = Loopback.server
        Loopback.server = server
        defer {
            Loopback.server = previous
            server.stop()
        }
        let (r, report) = try Self.loopbackSelfTest(["--rate", "44100"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect((report["resampler"] as? [String: Any])?["detected"] as? Bool == true, "\(r.stderr)")
        #expect(report["verdict"] as? String == "usable", "\(r.stderr)")
        #expect((report["advice"] as? [String])?.contains { $0.contains("sample-rate converter") } == true)
    }

    /// Fails when devices are opened at 44.1 kHz whatever the server runs at: the server's
    /// converter is then on the path, and the self-test says so.
    /// PipeWire only: PulseAudio switches an idle sink to the stream's rate instead.
    @Test func aServerAt48kHzIsOpenedAtItsRateUnlessTheRateIsChosen() throws {
        guard LiveStack.current == .pipewire, let server = LiveStack.current.start(rate: 48_000) else { return }
        let previous = Loopback.server
        Loopback.server = server
        defer {
            Loopback.server = previous
            server.stop()
        }
        let (r, report) = try Self.loopbackSelfTest()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("loopback: \(Loopback.device) at 48000 Hz"), "\(r.stderr)")
        #expect((report["resampler"] as? [String: Any])?["detected"] as? Bool == false, "\(r.stderr)")
        // The verdict may be held back by a stream gap on a loaded machine, never by a converter.
        #expect(["ok", "usable"].contains(report["verdict"] as? String), "\(r.stderr)")
        #expect(
            (report["advice"] as? [String])?.contains { $0.contains("sample-rate converter") } != true, "\(r.stderr)")
        // Asked for another rate, the -v line names the server's converter and how to avoid it.
        let rx = try Softmodem.run(["rx", "--device", Loopback.device, "--rate", "44100", "--duration", "1", "-v"])
        #expect(
            rx.stderr.contains(
                "capture 44100 Hz (the sound server converts from its 48000 Hz: --rate 48000 avoids it)"),
            "\(rx.stderr)")
        let plain = try Softmodem.run(["rx", "--device", Loopback.device, "--duration", "1", "-v"])
        #expect(plain.stderr.contains(": capture 48000 Hz, "), "\(plain.stderr)")
    }

    @Test func loopbackSelfTestUsesSeparatePlaybackAndCaptureDevices() throws {
        let html = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-\(getpid()).html")
        defer { try? FileManager.default.removeItem(at: html) }
        let r = try Softmodem.run(
            [
                "loopback", "--playback", Loopback.device, "--capture", Loopback.device, "--latency", "100", "-v",
                "--report", html.path,
            ], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        // --report writes the HTML page too (the browser checks are offline, in ModemCalibrationTests).
        let page = (try? String(contentsOf: html, encoding: .utf8)) ?? ""
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("data-verdict=\""), "\(page.prefix(200))")
        #expect(
            r.stderr.contains("\(Loopback.device): playback 44100 Hz")
                && r.stderr.contains("\(Loopback.device): capture 44100 Hz"))
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("response (relative to 1 kHz):"))
    }

    @Test func loopbackSelfTestOnAMissingDeviceIsOneRuntimeError() throws {
        let r = try Softmodem.run(["loopback", "--capture", "hw:99,0"], timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
