import ModemDecoding
import ModemFraming
public import ModemLive

/// A live session's notices in words: warnings a person must see, and the `-v` lines.
public enum LiveNoticeText {
    /// How a notice is shown.
    public enum Line: Equatable {
        /// Shown always, as a warning.
        case warning(String)
        /// Shown always, as a plain line.
        case info(String)
        /// Shown with `-v` only.
        case verbose(String)
    }

    /// The line for `notice`; nil for the two device openings, which the caller words with
    /// ``LiveText/device(_:_:serverRate:detail:periodTime:)`` (only it knows the sound
    /// server's rate).
    ///
    /// - Parameter fileTransfer: `send FILE` words the link's start as the transfer's.
    public static func line(_ notice: LiveNotice, fileTransfer: Bool = false) -> Line? {
        switch notice {
        case .captureOpened, .playbackOpened:
            return nil
        case .overrun(let device, let overruns, let dropped):
            // A card's overrun loses an unknown stretch of audio; ring drops are counted.
            let ringLoss = dropped > 0 ? ", \(dropped) frames dropped by a slow reader" : ""
            return .warning(
                "\(device): capture overrun, audio lost (\(overruns) so far\(ringLoss)); resuming at the next start bit"
            )
        case .captureStalled(let device, let seconds):
            return .warning(stall(device, seconds) + "; waiting for it")
        case .timelineReplayed:
            return .warning(
                "the audio streams had a gap (an overrun or underrun on a busy machine); playing that part again")
        case .captureResumed(let device, let seconds):
            return .warning("\(device): capture resumed after \(fixed(seconds, 1)) s without audio")
        case .deviceLost(let error, let direction):
            return .warning(
                "\(error.device): \(direction == .capture ? "capture" : "playback") lost (\(error)); waiting for the device to come back"
            )
        case .deviceReopened(let info, let direction):
            return .warning("\(info.name): \(direction == .capture ? "capture" : "playback") is back; resuming")
        case .reliableLinkStarted(let pathDelay, let ackTimeout):
            return .verbose(
                "\(fileTransfer ? "" : "reliable link: ")output path delay \(fixed(pathDelay * 1000)) ms; "
                    + "first ACK timeout \(fixed(ackTimeout, 2)) s, then the measured round trip")
        case .reliableLinkAgreed(let caps, let fullDuplex):
            return .verbose(
                "reliable link: far end takes \(caps.window) packet(s) of up to \(caps.maxPayload) bytes in flight, "
                    + (fullDuplex ? "full duplex" : "half duplex")
                    + (caps.selective ? ", selective repeat" : ", go-back-N"))
        case .reliableLinkUnanswered(let caps):
            return .verbose(
                "reliable link: no answer to the hello; sending as to a board with the first link version "
                    + "(\(caps.window) packet of up to \(caps.maxPayload) bytes a burst) and asking again every \(Int(ReliableSender.helloProbeSeconds)) s"
            )
        case .reliableLinkStalled(let unacknowledged, let seconds):
            return .info(
                "reliable link: \(unacknowledged) bytes not acknowledged for \(Int(seconds)) s; "
                    + "still retrying (is the far end running with --reliable?)")
        case .fileReceived(let h):
            return .verbose("received \(h.name): \(h.size) bytes, CRC-32 ok")
        }
    }

    /// The line for a capture that delivers nothing, with where to look.
    public static func stall(_ device: String, _ seconds: Double) -> String {
        "\(device): the capture delivered no audio for \(fixed(seconds, 1)) s, not even silence "
            + "(\(whatToCheck(device)))"
    }

    /// Where to look when `device` captures nothing, by the kind of device it names.
    public static func whatToCheck(_ device: String) -> String {
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
