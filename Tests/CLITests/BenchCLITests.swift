import Foundation
import ModemTestSupport
import Testing

@Suite("bench ber on the command line")
struct BenchCLITests {
    @Test("prints one row per SNR with measured and theoretical rates")
    func rows() throws {
        let result = try CLI.softmodem([
            "bench", "ber", "--bytes", "60", "--snr-from", "-1", "--snr-to", "3", "--snr-step", "2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(rows.count == 3)
        for row in rows {
            let fields = row.split(separator: " ").compactMap { Double($0) }
            #expect(fields.count >= 9, "\(row)")
            guard fields.count >= 9 else { continue }
            #expect(fields[2] == 60)  // bytes sent
            #expect((0...1).contains(fields[4]) && (0...1).contains(fields[5]))  // byte and bit error rates
            #expect(fields[6] > fields[7], "non-coherent theory is worse than coherent")
        }
        #expect(rows.first?.hasPrefix("  -1.0") == true)
    }

    @Test("--json prints an array of objects; bad options are usage errors")
    func jsonAndErrors() throws {
        let result = try CLI.softmodem([
            "bench", "ber", "--bytes", "20", "--snr-from", "10", "--snr-to", "10", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
        #expect(rows?.count == 1)
        #expect(rows?.first?["byteErrorRate"] as? Double == 0, "20 bytes at +10 dB decode without error")
        for bad in [
            ["--bytes", "0"], ["--snr-step", "0"], ["--snr-from", "5", "--snr-to", "1"], ["--profile", "nope"],
        ] {
            let r = try CLI.softmodem(["bench", "ber"] + bad)
            #expect(r.status == 2, "\(bad): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    /// --auto decodes each point as `decode` with no options: a Bell 202 burst at 48 kHz is
    /// found by detection and read exactly at a clean SNR; without --auto there is no column.
    @Test("--auto adds the no-options byte and bit error rates")
    func noOptionsColumn() throws {
        let result = try CLI.softmodem([
            "bench", "ber", "--profile", "bell202", "--rate", "48000", "--bytes", "200", "--snr-from", "10",
            "--snr-to", "10", "--auto", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
        #expect(rows?.first?["autoByteErrorRate"] as? Double == 0, "\(result.stdoutText)")
        #expect(rows?.first?["autoBitErrorRate"] as? Double == 0)
        let plain = try CLI.softmodem(["bench", "ber", "--bytes", "20", "--snr-from", "10", "--snr-to", "10", "--json"])
        #expect(!plain.stdoutText.contains("auto"), "no --auto, no column")
    }
}
