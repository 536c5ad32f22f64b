import Foundation
import Testing

/// Bad options of rx/tx --protocol and of the live send/receive: one line, exit status 2,
/// before any device is opened.
@Suite struct LiveProtocolUsageTests {
    @Test(arguments: [
        (["rx", "--protocol", "nosuch"], "'nosuch' is invalid for '--protocol"),
        (["rx", "--protocol", "pin", "--hex"], "--protocol cannot be combined with --hex or --timestamps"),
        (["rx", "--json"], "--json needs --protocol"),
        (["tx", "--protocol", "pin", "--json", "--pin", "13", "--state", "on"], "--json applies to decoding"),
        (["tx", "--protocol", "pin", "--pin", "40", "--state", "on"], "--pin must be 2-13"),
        (["tx", "--protocol", "pin", "--pin", "13"], "needs --state"),
        (["send", "/etc/hostname"], "give -o FILE (audio out) or --device NAME"),
        (["send", "/etc/hostname", "-o", "x.wav", "--device", "pulse"], "not both"),
        (["send", "/etc/hostname", "-o", "x.wav", "--timeout", "5"], "need --device"),
        (
            ["send", "/etc/hostname", "--device", "pulse", "--timeout", "0"],
            "--timeout must be a positive number of seconds"
        ),
        (["receive", "/tmp", "a.wav", "--device", "pulse"], "give either audio files or --device NAME, not both"),
        (["receive", "/tmp", "--turnaround", "1"], "need --device"),
        (["receive", "/tmp", "--device", "pulse", "--latency", "1"], "--latency must be 4 to 2000 ms"),
    ])
    func rejectedWithOneLine(arguments: [String], expected: String) throws {
        let r = try Softmodem.run(arguments, timeout: 10)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: ") && r.stderr.contains(expected), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
