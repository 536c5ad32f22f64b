import ArgumentParser
import Foundation
import ModemALSA

/// `softmodem devices`: the ALSA PCM names `--device` accepts.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture and playback devices, with the names --device accepts.")

    func run() throws {
        let devices = snd_device_name_hint_pcm()
        if devices.isEmpty { throw CLIError.runtime("ALSA lists no PCM devices (is libasound2 configured?)") }
        let width = min(40, devices.map(\.name.count).max() ?? 0)
        var out = ""
        for d in devices {
            let io = d.canCapture && d.canPlay ? "capture+playback" : d.canCapture ? "capture" : "playback"
            out += d.name.padding(toLength: max(width, d.name.count), withPad: " ", startingAt: 0)
                + "  " + io.padding(toLength: 16, withPad: " ", startingAt: 0) + "  " + d.description + "\n"
        }
        print(out, terminator: "")
    }
}
