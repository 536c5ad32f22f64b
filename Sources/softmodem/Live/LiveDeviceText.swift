import ModemALSA
import ModemDecoding
import ModemLive

extension AudioDeviceInfo {
    /// The rate for the `-v` device lines: "44100 Hz", and when a converter is on the way
    /// (alsa-lib's from the card's own rate, or the sound server's from its rate), which
    /// rate it converts from and how to avoid it.
    func rateText(_ direction: ALSADirection) -> String {
        if let native = convertedFromRate {
            return "\(sampleRate) Hz (alsa-lib converts from the card's \(native) Hz: --rate \(native) avoids it)"
        }
        if let server = ServerRate.rate(of: name, direction), server != sampleRate {
            return "\(sampleRate) Hz (the sound server converts from its \(server) Hz: --rate \(server) avoids it)"
        }
        return "\(sampleRate) Hz"
    }

    /// The `-v` line of an open device: rate, channels (`detail` after them), format,
    /// period (and, with `periodTime`, its milliseconds) and buffer.
    func line(_ direction: ALSADirection, detail: String = "", periodTime: Bool = true) -> String {
        let milliseconds = Diagnostics.number(Double(periodFrames) * 1000 / Double(sampleRate))
        return
            "\(name): \(direction == .capture ? "capture" : "playback") \(rateText(direction)), \(channels) channel(s)\(detail), "
            + "\(format), period \(periodFrames) frames\(periodTime ? " (\(milliseconds) ms)" : ""), "
            + "buffer \(bufferFrames) frames"
    }
}

extension CaptureCounters {
    var text: String {
        "\(framesCaptured) frames captured, \(overruns) overruns recovered, \(droppedFrames) frames dropped, "
            + (isRealTime ? "real-time priority" : "ordinary priority")
    }
}

extension PlaybackCounters {
    var text: String {
        "\(bytesSent) bytes sent, \(framesPlayed) frames played, \(silenceFrames) frames of filler silence, "
            + "\(underruns) underruns recovered, \(isRealTime ? "real-time" : "ordinary") priority"
    }
}

/// The `-v` counters of a live receiver: what was decoded, then the capture's frames.
func receiverCounters(_ s: DecodeStats, _ capture: CaptureCounters) -> String {
    var line =
        "\(s.bytes) bytes, \(s.parityErrors) parity errors, \(s.framingErrors) framing errors, "
        + "\(s.bursts) burst\(s.bursts == 1 ? "" : "s")"
    if let baud = s.baud { line += ", \(Diagnostics.number(baud, 1)) baud" }
    if let inverted = s.inverted { line += inverted ? ", inverted line" : ", normal polarity" }
    return line + ", " + capture.text
}

extension BridgeReport {
    /// The `-v` line about the devices (and the reliable link's statistics).
    var devicesText: String {
        guard let link else {
            return "rx \(receiverCounters(decoded, capture)); tx \(playback.text)"
        }
        let s = link.sent
        let r = link.received
        return
            "reliable link: \(s.payloadBytes) bytes acknowledged"
            + (link.sendingSeconds > 0 ? " (\(link.rate.text(over: "while sending")))" : "")
            + ", \(s.packetsSent) packets sent, \(s.retransmissions) retransmitted, "
            + "\(s.timeouts) timeouts, round trip \(Int((s.roundTrip * 1000).rounded())) ms, "
            + "packets of \(s.packetPayload) bytes; \(r.payloadBytes) bytes delivered, \(r.duplicates) duplicates, "
            + "\(r.repairedBytes) bytes repaired, \(link.damagedPackets) damaged packets, "
            + "\(r.acks) ACKs sent, \(link.echoesDropped) echoed packets dropped; "
            + "capture: \(receiverCounters(decoded, capture)); playback: \(playback.text)"
    }
}

extension LiveLink {
    /// The `-v` line of both directions' counters.
    var countersText: String {
        "capture: \(receiverCounters(decoded, captureCounters)); playback: \(playbackCounters.text)"
    }
}

extension PayloadRate {
    /// "94.1 B/s SPAN, 77 % of line rate", for the `-v` lines of the link's commands.
    func text(over span: String) -> String {
        "\(Diagnostics.number(bytesPerSecond, 1)) B/s \(span), \(Int((100 * efficiency).rounded())) % of line rate"
    }
}
