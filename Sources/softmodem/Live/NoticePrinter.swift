import ModemALSA
import ModemFraming
import ModemLive

/// Words a live session's notices on stderr: warnings always, the device lines and the
/// link's start with `-v`.
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
            Diagnostics.info(info.line(.capture, detail: detail) + plugin(info) + "; \(modemName)")
        case .playbackOpened(let info, let keptOpen):
            guard verbose else { return }
            Diagnostics.info(
                info.line(.playback) + (keptOpen ? ", kept open" : "")
                    + "; \(describeTransmitter(Double(info.sampleRate)))")
        case .overrun(let device, let overruns, let dropped):
            // A card's overrun loses an unknown stretch of audio; ring drops are counted.
            let ringLoss = dropped > 0 ? ", \(dropped) frames dropped by a slow reader" : ""
            warn(
                "\(device): capture overrun, audio lost (\(overruns) so far\(ringLoss)); resuming at the next start bit"
            )
        case .captureStalled(let device, let seconds):
            warn(Self.stallText(device, seconds) + "; waiting for it")
        case .timelineReplayed:
            warn("the audio streams had a gap (an overrun or underrun on a busy machine); playing that part again")
        case .captureResumed(let device, let seconds):
            warn("\(device): capture resumed after \(Diagnostics.number(seconds, 1)) s without audio")
        case .deviceLost(let error, let direction):
            warn(
                "\(error.device): \(direction == .capture ? "capture" : "playback") lost (\(error)); waiting for the device to come back"
            )
        case .deviceReopened(let info, let direction):
            warn("\(info.name): \(direction == .capture ? "capture" : "playback") is back; resuming")
        case .reliableLinkStarted(let pathDelay, let ackTimeout):
            guard verbose else { return }
            Diagnostics.info(
                "\(fileTransfer ? "" : "reliable link: ")output path delay \(Diagnostics.number(pathDelay * 1000)) ms; "
                    + "first ACK timeout \(Diagnostics.number(ackTimeout, 2)) s, then the measured round trip")
        case .reliableLinkAgreed(let caps, let fullDuplex):
            guard verbose else { return }
            Diagnostics.info(
                "reliable link: far end takes \(caps.window) packet(s) of up to \(caps.maxPayload) bytes in flight, "
                    + (fullDuplex ? "full duplex" : "half duplex")
                    + (caps.selective ? ", selective repeat" : ", go-back-N"))
        case .reliableLinkUnanswered(let caps):
            guard verbose else { return }
            Diagnostics.info(
                "reliable link: no answer to the hello; sending as to a board with the first link version "
                    + "(\(caps.window) packet of up to \(caps.maxPayload) bytes a burst) and asking again every \(Int(ReliableSender.helloProbeSeconds)) s"
            )
        case .reliableLinkStalled(let unacknowledged, let seconds):
            Diagnostics.info(
                "reliable link: \(unacknowledged) bytes not acknowledged for \(Int(seconds)) s; "
                    + "still retrying (is the far end running with --reliable?)")
        case .fileReceived(let h):
            if verbose { Diagnostics.info("received \(h.name): \(h.size) bytes, CRC-32 ok") }
        }
    }

    private func plugin(_ info: AudioDeviceInfo) -> String { info.plugin.map { ", through the \($0) plugin" } ?? "" }

    private func warn(_ text: String) {
        if !beforeWarning.isEmpty { Diagnostics.write(beforeWarning) }
        Diagnostics.warning(text)
    }

    /// The line for a capture that delivers nothing.
    static func stallText(_ device: String, _ seconds: Double) -> String {
        "\(device): the capture delivered no audio for \(Diagnostics.number(seconds, 1)) s, not even silence "
            + "(\(whatToCheck(device)))"
    }

    /// Where to look when `device` captures nothing, by the kind of device it names.
    static func whatToCheck(_ device: String) -> String {
        if device.hasPrefix("hw:") || device.hasPrefix("plughw:") {
            return
                "is the card suspended, unplugged or held by another program? check 'arecord -l' and 'fuser -v /dev/snd/*'"
        }
        if device == "pulse" {
            return "is the sound server running? check 'pactl info'"
        }
        if device == "pipewire" || device == "default" {
            return "is the sound server running? check 'pactl info' or 'systemctl --user status pipewire wireplumber'"
        }
        return "check that it records: 'arecord -D \(device) -d 2 -f S16_LE /tmp/test.wav'"
    }
}
