import Foundation
import ModemTestSupport
import Testing

@Suite("decode -v reports each burst's measured spectrum")
struct SpectrumReportCLITests {
    @Test("an off-frequency sender's tones are measured within 2 Hz")
    func offFrequency() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("app.wav").path
        let encoded = try CLI.softmodem(["encode", "--text", "measured tones", "--mark", "7300", "-o", path])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let decoded = try CLI.softmodem(["decode", "--profile", "softmodem-1225", "-v", path])
        #expect(decoded.stdoutText == "measured tones")
        let line = try #require(
            decoded.stderr.split(separator: "\n").first { $0.contains("spectrum:") }, "\(decoded.stderr)")
        let numbers = line.split(separator: "spectrum:")[1].split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 4, "\(line)")  // mark Hz, mark dBFS, space Hz, space dBFS
        guard numbers.count == 4 else { return }
        #expect(abs(numbers[0] - 7300) < 2 && abs(numbers[2] - 4900) < 2, "\(line)")
        #expect(abs(numbers[1] - -1) < 1 && abs(numbers[3] - -1) < 1, "\(line)")
    }
}
