import Foundation
import ModemTestSupport
import Testing

@Suite("loopback on the command line, without a sound device")
struct LoopbackCLITests {
    @Test("bad options are one-line usage errors before any device opens")
    func usageErrors() throws {
        for bad in [["--latency", "1"], ["--rate", "0"], ["--device"], ["--hijack", "extra"], ["--capture"]] {
            let r = try CLI.softmodem(["loopback"] + bad)
            #expect(r.status == 2, "\(bad): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(bad): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("a device that does not exist is one runtime error")
    func missingDevice() throws {
        let r = try CLI.softmodem(["loopback", "--playback", "hw:97,0", "--capture", "hw:98,0", "--json"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("hw:97,0"))
        #expect(r.stdout.isEmpty)
    }

    @Test("--report to a missing directory or onto a directory fails at once, in one line, leaving no file")
    func reportTargetErrors() throws {
        let dir = try CLI.temporaryDirectory()
        let missing = dir.appendingPathComponent("no-such-dir/report.html").path
        for (target, words) in [(missing, "no such directory"), (dir.path, "is a directory")] {
            // A device that does not exist as well: the report's target is checked first.
            let r = try CLI.softmodem(["loopback", "--device", "hw:97,0", "--report", target])
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains(target) && r.stderr.contains(words), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("--report - with --json is a usage error (both on stdout)")
    func reportAndJSONOnStdout() throws {
        let r = try CLI.softmodem(["loopback", "--json", "--report", "-"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
