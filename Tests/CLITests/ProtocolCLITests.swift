import Foundation
import ModemTestSupport
import Testing

@Suite struct ProtocolCLITests {
    /// Encodes with --protocol, decodes with --protocol --json; returns the JSON objects.
    func roundTrip(_ proto: String, _ args: [String]) throws -> [[String: Any]] {
        let dir = try CLI.temporaryDirectory()
        let wav = dir.appendingPathComponent("m.wav").path
        let enc = try CLI.softmodem(["encode", "--protocol", proto] + args + ["-o", wav])
        #expect(enc.status == 0, "\(enc.stderr)")
        let dec = try CLI.softmodem(["decode", "--protocol", proto, "--json", wav])
        #expect(dec.status == 0, "\(dec.stderr)")
        return dec.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func motorThroughAudio() throws {
        let objects = try roundTrip("motor", ["--steer", "-200", "--accel", "90", "--headlights"])
        #expect(objects.count == 1)
        let fields = objects.first?["fields"] as? [String: Any]
        #expect(fields?["steer"] as? Int == -200)
        #expect(fields?["accel"] as? Int == 90)
        #expect(fields?["headlights"] as? Bool == true)
        #expect(fields?["brake"] as? Bool == false)
        #expect(objects.first?["raw"] as? String == "15485a3a")
        #expect(objects.first?["time"] is Double)
    }

    @Test(arguments: [
        ("pin", ["--pin", "13", "--state", "on"], "pin", 13),
        ("pin-reply", ["--pin", "7", "--state", "0"], "pin", 7),
        ("range", ["--range", "157"], "range", 157),
        ("ez1", ["--range", "42"], "range", 42),
        ("accessory", ["--command", "0x10", "--counter", "9", "--data", "03"], "counter", 9),
        ("xbee-api2", ["--api-id", "0x08", "--data", "7e11"], "api", 8),
        ("hijack-rate", ["--sample-hz", "100"], "period_ticks", 10),
        ("line", ["--text", "Hello world"], "text", -1),
        ("slip", ["--data", "c0db00"], "payload", -1),
        ("cobs", ["--data", "000100"], "payload", -1),
        ("link", ["--data", "00ff", "--counter", "5"], "seq", 5),
    ])
    func everyProtocolThroughAudio(_ proto: String, _ args: [String], _ field: String, _ value: Int) throws {
        let objects = try roundTrip(proto, args)
        #expect(objects.count == 1)
        let fields = objects.first?["fields"] as? [String: Any]
        if value >= 0 { #expect(fields?[field] as? Int == value) } else { #expect(fields?[field] != nil) }
    }

    @Test func textOutputAndXBeeSession() throws {
        let dir = try CLI.temporaryDirectory()
        let wav = dir.appendingPathComponent("x.wav").path
        #expect(
            try CLI.softmodem(["encode", "--protocol", "xbee-at", "--at", "BD 3", "--at", "WR", "-o", wav]).status == 0)
        let dec = try CLI.softmodem(["decode", "--protocol", "xbee-at", wav])
        #expect(dec.stdoutText.contains("ATBD 3 (9600 baud)"))
        #expect(dec.stdoutText.contains("ATWR"))
    }

    @Test func badProtocolArgumentsAreUsageErrors() throws {
        let dir = try CLI.temporaryDirectory()
        let wav = dir.appendingPathComponent("x.wav").path
        for args in [
            ["encode", "--protocol", "nope", "-o", wav],
            ["encode", "--protocol", "pin", "--pin", "14", "--state", "on", "-o", wav],
            ["encode", "--protocol", "pin", "--pin", "3", "-o", wav],
            ["encode", "--protocol", "motor", "--steer", "300", "-o", wav],
            ["encode", "--protocol", "slip", "--data", "xyz", "-o", wav],
            ["encode", "--protocol", "accessory", "-o", wav],
            ["decode", "--json", wav],
        ] {
            let r = try CLI.softmodem(args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func sendReceiveFile() throws {
        let dir = try CLI.temporaryDirectory()
        var bytes = [UInt8](repeating: 0, count: 2_000)
        var x: UInt32 = 12345
        for i in bytes.indices {
            x = x &* 1_103_515_245 &+ 12345
            bytes[i] = UInt8(truncatingIfNeeded: x >> 16)
        }
        let file = dir.appendingPathComponent("payload.bin")
        try Data(bytes).write(to: file)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let wav = dir.appendingPathComponent("send.wav").path
        #expect(try CLI.softmodem(["send", file.path, "-o", wav, "--repeat", "2"]).status == 0)

        // Silence 40 ms in the middle: one copy of some packet is destroyed, the repeat saves it.
        var audio = try Data(contentsOf: URL(fileURLWithPath: wav))
        let middle = 44 + (audio.count - 44) / 2 & ~1
        audio.replaceSubrange(middle..<(middle + 3_528), with: Data(count: 3_528))
        try audio.write(to: URL(fileURLWithPath: wav))

        let r = try CLI.softmodem(["receive", out.path, wav])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("payload.bin")) == Data(bytes))
    }

    @Test("receive --profile auto finds the sender's profile (softmodem-2450 here) and writes the file")
    func receiveWithDetection() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("auto.bin")
        try Data((0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: file)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let wav = dir.appendingPathComponent("send.wav").path
        #expect(try CLI.softmodem(["send", "--profile", "softmodem-2450", file.path, "-o", wav]).status == 0)
        let r = try CLI.softmodem(["receive", "--profile", "auto", out.path, wav])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("auto.bin")) == Data(contentsOf: file))
        let live = try CLI.softmodem(["receive", "--profile", "auto", "--device", "null", out.path])
        #expect(live.status == 2 && live.stderr.contains("needs a named profile"), "\(live.stderr)")
    }

    @Test func receiveReportsIncompleteFile() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("small.txt")
        try Data(String(repeating: "softmodem ", count: 30).utf8).write(to: file)
        let wav = dir.appendingPathComponent("send.wav").path
        #expect(try CLI.softmodem(["send", file.path, "-o", wav]).status == 0)
        var audio = try Data(contentsOf: URL(fileURLWithPath: wav))
        let cut = 44 + (audio.count - 44) * 2 / 3 & ~1
        audio.replaceSubrange(cut..<(cut + 26_460), with: Data(count: 26_460))
        try audio.write(to: URL(fileURLWithPath: wav))
        let r = try CLI.softmodem(["receive", dir.path, wav])
        #expect(r.status == 1)
        #expect(r.stderr.contains("incomplete"))
        let missing = try CLI.softmodem(["receive", dir.appendingPathComponent("nope").path, wav])
        #expect(missing.status == 1)
    }
}

@Suite struct HiJackProtocolCLITests {
    @Test func rateByteThroughHiJackAudio() throws {
        let dir = try CLI.temporaryDirectory()
        let wav = dir.appendingPathComponent("h.wav").path
        let enc = try CLI.softmodem([
            "encode", "--profile", "hijack", "--protocol", "hijack-rate", "--sample-hz", "50", "-o", wav,
        ])
        #expect(enc.status == 0, "\(enc.stderr)")
        let dec = try CLI.softmodem(["decode", "--profile", "hijack", "--protocol", "hijack-rate", "--json", wav])
        #expect(dec.status == 0, "\(dec.stderr)")
        let object =
            try JSONSerialization.jsonObject(
                with: Data(dec.stdoutText.split(separator: "\n").first.map(String.init)?.utf8 ?? "".utf8))
            as? [String: Any]
        let fields = object?["fields"] as? [String: Any]
        #expect(fields?["period_ticks"] as? Int == 20)
    }
}
