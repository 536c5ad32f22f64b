import ArgumentParser
import ModemALSA

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem devices`: the ALSA PCM names `--device` accepts.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture and playback devices, with the names --device accepts.")

    func run() throws {
        let devices = ALSADevice.all()
        if devices.isEmpty { throw CLIError.runtime("ALSA lists no PCM devices (is libasound2 configured?)") }
        let width = min(40, devices.map(\.name.count).max() ?? 0)
        var out = ""
        for d in devices {
            let io = d.canCapture && d.canPlay ? "capture+playback" : d.canCapture ? "capture" : "playback"
            func padded(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
            out += padded(d.name, width) + "  " + padded(io, 16) + "  " + d.description + "\n"
        }
        print(out, terminator: "")
    }
}
