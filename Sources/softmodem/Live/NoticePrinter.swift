import CommandLineText
import ModemALSA
import ModemLive

/// Writes a live session's notices (``LiveNoticeText`` words them) on stderr: warnings
/// always, the device lines and the link's start with `-v`.
final class NoticePrinter: LiveNoticeHandler {
    let verbose: Bool
    /// Appended to the capture's `-v` line: the modem decoded ("softmodem-1225").
    var modemName = ""
    /// Appended to the playback's `-v` line: what is sent, at the device's rate.
    var describeTransmitter: (Double) -> String = { _ in "" }
    /// Written before each warning: a status line refreshed in place sets it to erase
    /// itself, so the warning gets a line of its own.
    var beforeWarning = ""
    /// `send FILE`: the link's start is worded as the file transfer words it.
    var fileTransfer = false

    init(verbose: Bool) { self.verbose = verbose }

    func notice(_ notice: LiveNotice) {
        switch notice {
        case .captureOpened(let info, let channel):
            guard verbose else { return }
            let detail = channel > 0 ? " (decoding channel \(channel + 1))" : ""
            Diagnostics.info(
                Self.device(info, .capture, detail: detail) + LiveText.plugin(info) + "; \(modemName)")
        case .playbackOpened(let info, let keptOpen):
            guard verbose else { return }
            Diagnostics.info(
                Self.device(info, .playback) + (keptOpen ? ", kept open" : "")
                    + "; \(describeTransmitter(Double(info.sampleRate)))")
        default:
            switch LiveNoticeText.line(notice, fileTransfer: fileTransfer) {
            case .warning(let text):
                if !beforeWarning.isEmpty { Diagnostics.write(beforeWarning) }
                Diagnostics.warning(text)
            case .info(let text): Diagnostics.info(text)
            case .verbose(let text): if verbose { Diagnostics.info(text) }
            case nil: break
            }
        }
    }

    /// The `-v` line of an open device, with the sound server's rate when it converts.
    static func device(
        _ info: AudioDeviceInfo, _ direction: AudioDirection, detail: String = "", periodTime: Bool = true
    ) -> String {
        let server = ServerRate.rate(of: info.name, direction == .capture ? .capture : .playback)
        return LiveText.device(info, direction, serverRate: server, detail: detail, periodTime: periodTime)
    }
}
