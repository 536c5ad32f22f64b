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
}
