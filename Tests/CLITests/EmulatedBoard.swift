import Foundation
import ModemTestSupport

/// The real arms22 SoftModem firmware on an emulated ATmega328P (../shared/emulated-board):
/// builds `avrsim` and firmware into .build/emulated-board once, and runs them.
///
/// Absent when ../shared/emulated-board or its Debian packages (gcc-avr, avr-libc,
/// arduino-core-avr, libsimavr-dev, libelf-dev: `make test` installs them) are missing;
/// the tests then skip with a line saying why.
enum EmulatedBoard {
    static let shared = CLI.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/emulated-board")
    static let work = CLI.packageRoot.appendingPathComponent(".build/emulated-board")
    static var avrsim: String { work.appendingPathComponent("avrsim").path }

    /// Why the board cannot run here, or nil when it can.
    static let unavailable: String? = {
        guard FileManager.default.fileExists(atPath: shared.appendingPathComponent("build-firmware").path) else {
            return "../shared/emulated-board is absent"
        }
        for tool in ["avr-gcc", "make", "cc"] where CLI.which(tool) == nil { return "\(tool) is missing" }
        guard FileManager.default.fileExists(atPath: "/usr/include/simavr/sim_avr.h") else {
            return "libsimavr-dev is missing"
        }
        return nil
    }()

    /// Builds are serialised: parallel tests share the artefacts.
    private static let lock = NSLock()

    /// Builds avrsim once; throws with the build's output when it fails.
    static func buildSimulator() throws {
        lock.lock()
        defer { lock.unlock() }
        if FileManager.default.isExecutableFile(atPath: avrsim) { return }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let r = try CLI.run(
            "/usr/bin/make", ["-s", "-C", shared.appendingPathComponent("avrsim").path, "O=\(work.path)"], timeout: 300)
        guard r.status == 0 else { throw Failure("building avrsim: \(r.stderr)") }
    }

    /// The ELF of `sketch` (a path) built with the library at `rate` for a `clock` Hz
    /// board, with `extra` sources and include folders; built once per combination.
    static func firmware(
        _ sketch: String, rate: Int, clock: Int, includes: [String] = [], extra: [String] = []
    ) throws -> String {
        try buildSimulator()
        lock.lock()
        defer { lock.unlock() }
        let name = URL(fileURLWithPath: sketch).deletingPathExtension().lastPathComponent
        let elf = work.appendingPathComponent("\(name)-\(rate)-\(clock).elf").path
        if FileManager.default.fileExists(atPath: elf) { return elf }
        let buildDir = work.appendingPathComponent("build-\(name)-\(rate)-\(clock)").path
        let arguments =
            ["--rate", String(rate), "--f-cpu", String(clock), "--build-dir", buildDir, "-o", elf + ".tmp"]
            + includes.flatMap { ["-I", $0] } + [sketch] + extra
        let r = try CLI.run(shared.appendingPathComponent("build-firmware").path, arguments, timeout: 300)
        guard r.status == 0 else { throw Failure("building \(name) at \(rate) baud, \(clock) Hz: \(r.stderr)") }
        try FileManager.default.moveItem(atPath: elf + ".tmp", toPath: elf)
        return elf
    }

    /// One of the emulated-board folder's bridge sketches: UART0 bytes out through the
    /// modem, one `write()` per byte (`perByte`) or per batch of up to 64, and demodulated
    /// bytes back on UART0.
    static func bridge(perByte: Bool, rate: Int, clock: Int) throws -> String {
        let sketch = shared.appendingPathComponent("sketches/\(perByte ? "bridge-per-byte" : "bridge-burst").cpp")
        return try firmware(sketch.path, rate: rate, clock: clock)
    }

    /// What the board transmits for `bytes` fed to its UART, as a WAV at `wav`: the bytes
    /// paced under the line rate (the Arduino core's serial buffer holds 64).
    static func transmit(_ bytes: Data, firmware: String, rate: Int, clock: Int, to wav: String) throws {
        let input = wav + ".uart"
        try bytes.write(to: URL(fileURLWithPath: input))
        let r = try CLI.run(
            avrsim,
            [
                "--freq", String(clock), "--uart-in-cps", String(rate / 12 + 1), "-u", input, "-U", "", "-o", wav,
                firmware,
            ],
            timeout: 600)
        guard r.status == 0 else { throw Failure("avrsim: \(r.stderr)") }
    }

    /// The bytes the board's UART gives out after its comparator heard `wav`, its peak
    /// sample scaled to `volts` at the pin.
    static func receive(_ wav: String, volts: Double, firmware: String, clock: Int) throws -> Data {
        let r = try CLI.run(
            avrsim, ["--freq", String(clock), "--volts-peak", String(volts), "-i", wav, "-U", "-", firmware],
            timeout: 600)
        guard r.status == 0 else { throw Failure("avrsim: \(r.stderr)") }
        return r.stdout
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
