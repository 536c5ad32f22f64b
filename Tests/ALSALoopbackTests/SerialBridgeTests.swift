import Foundation
import Glibc
import ModemTestSupport
import Testing

/// `softmodem serial` over the null-sink loopback: two bridges on one sink, and a program
/// that only knows serial ports (pyserial, Debian's python3-serial) on both ends. Part of the
/// serialized loopback suite: its processes reach the suite's one private sound server.
extension LoopbackTests {
    static let python = "/usr/bin/python3"
    static let script = CLI.packageRoot.appendingPathComponent("Tests/ALSALoopbackTests/Fixtures/serial_exchange.py").path

    /// pyserial under the system Python, or nil (after saying why) when it is missing.
    static var pyserialAvailable: Bool {
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? CLI.run(python, ["-c", "import serial"]).status) == 0
        else {
            print("serial bridge test skipped: \(python) with pyserial (python3-serial) is not installed (make deps installs it)")
            return false
        }
        return true
    }

    @Test func serialBridgesCarryTwoKilobytesEachWayWithNoEchoAndAReopen() throws {
        guard Self.pyserialAvailable, let server = Loopback.server else { return }
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let linkA = dir.appendingPathComponent("ttyA").path, linkB = dir.appendingPathComponent("ttyB").path
        let a = try Softmodem.Running(["serial", "--device", "pulse", "--link", linkA, "-v"], in: dir, tag: "a")
        let b = try Softmodem.Running(["serial", "--device", "pulse", "--link", linkB, "-v"], in: dir, tag: "b")
        #expect(Softmodem.waitUntilCapturing(a, b))
        #expect(FileManager.default.fileExists(atPath: linkA) && FileManager.default.fileExists(atPath: linkB))
        #expect(a.stderr.contains("softmodem serial: \(linkA) -> /dev/pts/"), "\(a.stderr)")

        // The program runs with the server's environment, like every process of the test.
        let log = dir.appendingPathComponent("exchange.log").path
        let logFD = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644), null = open("/dev/null", O_RDONLY)
        defer { close(logFD); close(null) }
        let exchange = try ChildProcess(Self.python, [Self.script, linkA, linkB, "2048", "7"], environment: server.environment,
                                        stdin: null, stdout: logFD, stderr: logFD)
        let status = exchange.wait(timeout: 150)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        print("serial exchange: \(output)")
        #expect(status == 0, "\(output)\n--- a:\n\(a.stderr)\n--- b:\n\(b.stderr)")
        #expect(output.contains("A->B: sent 2048, received 2048, equal True, echo 0"), "\(output)")
        #expect(output.contains("B->A: sent 2048, received 2048, equal True, echo 0"), "\(output)")
        #expect(output.contains("reopened A->B: sent 10, received 10, equal True, echo 0"), "\(output)")

        // SIGTERM stops a bridge cleanly and removes its symlink.
        a.signal(SIGTERM)
        b.signal(SIGTERM)
        #expect(a.wait(timeout: 10) == 0, "\(a.stderr)")
        #expect(b.wait(timeout: 10) == 0, "\(b.stderr)")
        #expect(!FileManager.default.fileExists(atPath: linkA) && !FileManager.default.fileExists(atPath: linkB))
        #expect(a.stderr.contains("a program set 9600 baud"), "settings a program makes are reported with -v: \(a.stderr)")
    }

    @Test func serialLinkPathThatIsARegularFileIsNotReplaced() throws {
        let dir = try Softmodem.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("precious").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let r = try Softmodem.run(["serial", "--device", "pulse", "--link", path], timeout: 10)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: ") && r.stderr.contains("not a symlink"), "\(r.stderr)")
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "keep me")
    }
}
