import ArgumentParser
import ModemAudioIO
import ModemBench
import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The `softmodem` command: one root, subcommands in Commands/.
///
/// `main()` is replaced so every failure becomes one line on stderr with the exit status
/// the README promises: 2 for usage errors (bad options, impossible profiles), 1 for runtime
/// errors (missing or broken files, devices, I/O).
@main
struct SoftModem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "softmodem",
        abstract: "An audio-jack modem for Arduino SoftModem and HiJack boards.",
        discussion: """
            Encodes bytes to FSK audio and decodes recordings, compatible with the arms22 \
            SoftModem Arduino library and its phone apps. Decoded bytes go to stdout; \
            messages go to stderr.
            """,
        version: "0.1.0",
        subcommands: [
            EncodeCommand.self, DecodeCommand.self, InspectCommand.self, DevicesCommand.self, TxCommand.self,
            RxCommand.self,
            TermCommand.self, SerialCommand.self, LevelCommand.self, PowerCommand.self, SendCommand.self,
            ReceiveCommand.self,
            BenchCommand.self, LoopbackCommand.self,
        ])

    /// A parser message as one line: a list of choices ("- a" lines) is joined after the
    /// first line; anything else after it (usage, help hints) is dropped.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }
        guard let first = lines.first, !first.isEmpty else { return "invalid usage (see softmodem --help)" }
        let choices = lines.dropFirst().prefix { $0.hasPrefix("- ") }.map { $0.dropFirst(2) }
        return choices.isEmpty ? String(first) : first + " " + choices.joined(separator: ", ")
    }

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if let mapped = CLIError.mapped(error) { exit(mapped) }
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            let message = self.message(for: error)
            Diagnostics.error(oneLine(message))
            Glibc.exit(2)
        }
    }

    private static func exit(_ error: CLIError) -> Never {
        if !error.message.isEmpty { Diagnostics.error(error.message) }
        Glibc.exit(error.exitCode)
    }
}
