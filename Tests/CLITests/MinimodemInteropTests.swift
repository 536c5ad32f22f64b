import Foundation
import ModemTestSupport
import Testing

/// Interop with minimodem, an independent implementation (Debian package `minimodem`).
@Suite("interop with minimodem")
struct MinimodemInteropTests {
    static let cases: [(profile: String, mark: String, space: String, baud: String)] = [
        ("softmodem-1225", "7350", "4900", "1225"),
        ("softmodem-2450", "7350", "4900", "2450"),
        ("webjack-1225", "4900", "2450", "1225"),
    ]

    static var minimodem: String? { CLI.which("minimodem") }

    @Test("minimodem decodes what softmodem encodes", arguments: cases)
    func minimodemDecodesUs(c: (profile: String, mark: String, space: String, baud: String)) throws {
        guard let minimodem = Self.minimodem else {
            Issue.record("minimodem missing: make test installs it")
            return
        }
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("tx.wav").path
        let bytes = CLI.randomBytes(1000, seed: 42)
        #expect(try CLI.softmodem(["encode", "--profile", c.profile, "-o", path], stdin: bytes).status == 0)
        let r = try CLI.run(minimodem, ["--rx", "-q", "-M", c.mark, "-S", c.space, "-f", path, c.baud])
        #expect(r.stdout == bytes, "minimodem got \(r.stdout.count) bytes: \(r.stderr)")
    }

    @Test("softmodem decodes what minimodem encodes", arguments: cases)
    func weDecodeMinimodem(c: (profile: String, mark: String, space: String, baud: String)) throws {
        guard let minimodem = Self.minimodem else {
            Issue.record("minimodem missing: make test installs it")
            return
        }
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("mm.wav").path
        let bytes = CLI.randomBytes(1000, seed: 7)
        let tx = try CLI.run(
            minimodem, ["--tx", "-q", "-R", "44100", "-M", c.mark, "-S", c.space, "-f", path, c.baud], stdin: bytes)
        #expect(tx.status == 0, "\(tx.stderr)")
        let r = try CLI.softmodem(["decode", "--profile", c.profile, path])
        #expect(r.stdout == bytes, "decoded \(r.stdout.count) bytes: \(r.stderr)")
    }
}
