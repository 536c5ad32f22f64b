import Foundation
import ModemTestSupport
import Testing

/// `decode --profile auto` on the command line: the samples decode with no profile named,
/// and `-v` says what was detected and how to pin it.
@Suite("decode --profile auto")
struct AutoProfileCLITests {
    @Test(
        "the samples decode exactly with no profile, and -v names each one's profile",
        arguments: [
            ("samples/hello-softmodem-1225.wav", "samples/hello-softmodem-1225.txt", "--profile softmodem-1225"),
            ("samples/hello-webjack-1225.wav", "samples/hello-webjack-1225.txt", "--profile webjack-1225"),
            (
                "samples/all-bytes-softmodem-2450.wav", "samples/all-bytes-softmodem-2450.bin",
                "--profile softmodem-2450"
            ),
        ])
    func samples(audio: String, bytes: String, pin: String) throws {
        let root = CLI.packageRoot
        let r = try CLI.softmodem(["decode", "--profile", "auto", "-v", root.appendingPathComponent(audio).path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (try Data(contentsOf: root.appendingPathComponent(bytes))))
        #expect(r.stderr.contains("pin with \(pin)"), "\(r.stderr)")
    }

    @Test(
        "options that would pin what auto finds, and sending with auto, are usage errors",
        arguments: [
            (["decode", "--profile", "auto", "--baud", "300", "-"], "--profile auto finds tones"),
            (["decode", "--profile", "auto", "--parity", "even", "-"], "--profile auto finds tones"),
            (["decode", "--profile", "auto", "--no-adapt", "-"], "--no-adapt does not apply"),
            (
                ["encode", "--profile", "auto", "--text", "x", "-o", "-"],
                "--profile auto finds the modem when receiving"
            ),
        ])
    func usage(arguments: [String], expected: String) throws {
        let r = try CLI.softmodem(arguments, stdin: Data())
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: ") && r.stderr.contains(expected), "\(r.stderr)")
    }
}
