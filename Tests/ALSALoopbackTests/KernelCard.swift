import Foundation
import Glibc

/// Sound cards with the kernel's rules, for the live tests on a machine with none: the
/// Fixtures/kernelrules_pcm.c plugin, configured in a private HOME's `.asoundrc`.
///
/// - `card` hears what it plays, at 44.1 kHz only: one program plays, another records
///   (each direction admits one program at a time).
/// - `end1` and `end2` are snd-aloop's two ends, at 44.1 kHz: each hears what the other
///   plays, not itself, so two programs that each hold both directions (send and receive,
///   two serial bridges) take one end each, as over a cable between two machines.
/// - `card48` runs at 48 kHz only, on a cable of its own.
///
/// A card is unplugged while `<dir>/<name>.unplugged` exists.
struct KernelCard {
    let dir: URL
    /// The environment of the children: this HOME and the system's ALSA configuration.
    let environment: [String: String]

    /// Builds the plugin and writes the configuration; nil (after saying why) when it cannot.
    static func make(in dir: URL) throws -> KernelCard? {
        guard let library = try ALSAPluginFixture.build("kernelrules_pcm.c", type: "kernelrules", into: dir) else {
            return nil
        }
        let path = dir.path
        try """
        pcm_type.kernelrules { lib "\(library)" }
        pcm.card { type kernelrules state "\(path)/card" rate 44100 }
        pcm.end1 {
            type kernelrules state "\(path)/end1" playback_air "\(path)/one-to-two" capture_air "\(path)/two-to-one"
            rate 44100
        }
        pcm.end2 {
            type kernelrules state "\(path)/end2" playback_air "\(path)/two-to-one" capture_air "\(path)/one-to-two"
            rate 44100
        }
        pcm.card48 { type kernelrules state "\(path)/card48" rate 48000 }
        """.write(to: dir.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = path
        environment["ALSA_CONFIG_PATH"] = nil
        return KernelCard(dir: dir, environment: environment)
    }

    /// Pulls card `name` out (true) or plugs it back in (false).
    func unplug(_ name: String, _ out: Bool = true) {
        let file = dir.appendingPathComponent("\(name).unplugged")
        if out {
            FileManager.default.createFile(atPath: file.path, contents: Data())
        } else {
            try? FileManager.default.removeItem(at: file)
        }
    }

    func running(_ arguments: [String], tag: String, tty: PseudoTerminal? = nil) throws -> Softmodem.Running {
        try Softmodem.Running(arguments, in: dir, tag: tag, tty: tty, environment: environment)
    }

    func run(_ arguments: [String], stdin: Data = Data(), timeout: Double = 60) throws -> Softmodem.Result {
        try Softmodem.run(arguments, stdin: stdin, timeout: timeout, environment: environment)
    }

    /// Waits until every process printed its `-v` capture line for `device`, then a little.
    static func waitUntilCapturing(_ device: String, _ processes: Softmodem.Running..., timeout: Double = 5) -> Bool {
        let open = Softmodem.waitUntil(timeout: timeout) {
            processes.allSatisfy { $0.stderr.contains("\(device): capture") }
        }
        usleep(300_000)
        return open
    }
}
