import Foundation
import Testing

/// Bad options of the live commands: one line on stderr, exit status 2, before any device
/// is opened (so no sound server is needed).
@Suite struct LiveUsageTests {
    @Test(arguments: [
        (["rx", "--latency", "1"], "--latency must be 4 to 2000 ms"),
        (["tx", "--latency", "nan", "--text", "x"], "--latency must be 4 to 2000 ms"),
        (["rx", "--rate", "0"], "--rate must be 1 to 1000000 Hz"),
        (["rx", "--count", "0"], "--count must be at least 1"),
        (["rx", "--duration=-1"], "--duration must be a positive number of seconds"),
        (["rx", "--hex", "--timestamps"], "--hex and --timestamps cannot be combined"),
        (["level", "--duration", "0"], "--duration must be a positive number of seconds"),
        (["term", "--echo-guard=-5"], "--echo-guard must be 0 to 10000 ms"),
        (["tx", "--amplitude=3", "--text", "x"], "amplitude"),
        (["rx", "--profile", "nosuch"], "nosuch"),
        (["term", "--send-profile", "softmodem-2450"], "--send-profile applies to --profile auto"),
        (["term", "--profile", "auto", "--send-profile", "hijack"], "--send-profile must name an FSK profile"),
        (["serial", "--profile", "auto", "--send-profile", "auto"], "--send-profile must name an FSK profile"),
        (["term", "--profile", "auto", "--baud", "300"], "--profile auto finds tones"),
    ])
    func rejectedWithOneLine(arguments: [String], expected: String) throws {
        let r = try Softmodem.run(arguments, timeout: 10)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: ") && r.stderr.contains(expected), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
