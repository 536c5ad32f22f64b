import Foundation
import Glibc
import Testing

/// The ALSA plugins the live tests build from Fixtures/ (devices a machine with no sound card
/// lacks): compiled with the system's C compiler into `dir`, loaded by a test's `.asoundrc`.
enum ALSAPluginFixture {
    /// Compiles Fixtures/`source` into `dir`/libasound_module_pcm_`type`.so and returns its
    /// path; nil when there is no C compiler (said why) or it failed (recorded as an issue).
    static func build(_ source: String, type: String, into dir: URL) throws -> String? {
        guard let compiler = PulseServer.which("cc") ?? PulseServer.which("gcc") else {
            print("\(type) ALSA plugin test skipped: no C compiler (cc) to build it")
            return nil
        }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(source)").path
        let library = dir.appendingPathComponent("libasound_module_pcm_\(type).so").path
        let log = dir.appendingPathComponent("cc-\(type).log").path
        let logFD = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let nullFD = open("/dev/null", O_RDWR)
        defer {
            close(logFD)
            close(nullFD)
        }
        let cc = try ChildProcess(
            compiler, ["-shared", "-fPIC", "-DPIC", "-O2", "-o", library, path, "-lasound"],
            environment: ProcessInfo.processInfo.environment, stdin: nullFD, stdout: logFD, stderr: logFD)
        let built = cc.wait(timeout: 60)
        #expect(built == 0, "cc failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return built == 0 ? library : nil
    }
}
