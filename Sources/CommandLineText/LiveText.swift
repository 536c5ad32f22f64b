public import ModemDecoding
public import ModemLive

/// The `-v` lines of live sessions: open devices, their counters, the link's statistics.
public enum LiveText {
    /// The `-v` line of an open device: rate, channels (`detail` after them), format,
    /// period (and, with `periodTime`, its milliseconds) and buffer.
    ///
    /// - Parameter serverRate: the sound server's own rate when the device goes through one;
    ///   a rate that differs from the stream's is named, with the option that avoids the
    ///   conversion (as is alsa-lib's conversion from the card's rate).
    public static func device(
        _ info: AudioDeviceInfo, _ direction: AudioDirection, serverRate: Int?, detail: String = "",
        periodTime: Bool = true
    ) -> String {
        var rate = "\(info.sampleRate) Hz"
        if let native = info.convertedFromRate {
            rate += " (alsa-lib converts from the card's \(native) Hz: --rate \(native) avoids it)"
        } else if let serverRate, serverRate != info.sampleRate {
            rate += " (the sound server converts from its \(serverRate) Hz: --rate \(serverRate) avoids it)"
        }
        let milliseconds = fixed(Double(info.periodFrames) * 1000 / Double(info.sampleRate))
        return
            "\(info.name): \(direction == .capture ? "capture" : "playback") \(rate), \(info.channels) channel(s)\(detail), "
            + "\(info.format), period \(info.periodFrames) frames\(periodTime ? " (\(milliseconds) ms)" : ""), "
            + "buffer \(info.bufferFrames) frames"
    }

    /// ", through the PulseAudio plugin" when the device names one, else "".
    public static func plugin(_ info: AudioDeviceInfo) -> String {
        info.plugin.map { ", through the \($0) plugin" } ?? ""
    }

    /// A capture's counters: frames, overruns, dropped frames, priority.
    public static func counters(_ c: CaptureCounters) -> String {
        "\(c.framesCaptured) frames captured, \(c.overruns) overruns recovered, \(c.droppedFrames) frames dropped, "
            + (c.isRealTime ? "real-time priority" : "ordinary priority")
    }

    /// A playback's counters: bytes, frames, filler, underruns, priority.
    public static func counters(_ p: PlaybackCounters) -> String {
        "\(p.bytesSent) bytes sent, \(p.framesPlayed) frames played, \(p.silenceFrames) frames of filler silence, "
            + "\(p.underruns) underruns recovered, \(p.isRealTime ? "real-time" : "ordinary") priority"
    }

    /// A live receiver's counters: what was decoded, then the capture's frames.
    public static func receiver(_ s: DecodeStats, _ capture: CaptureCounters) -> String {
        BurstText.counts(s) + ", " + counters(capture)
    }

    /// The `-v` line `rx` ends with: the modem, what was decoded, the capture's counters,
    /// and with `--timestamps` the worst latency from a character's end to stdout (`worst`:
    /// the whole, then the demodulator's look-ahead, the audio the device held, decoding and
    /// output; seconds).
    public static func receiverEnd(
        _ modem: String, _ s: DecodeStats, _ capture: CaptureCounters,
        worst: (total: Double, lookahead: Double, held: Double, output: Double)?, interrupted: Bool
    ) -> String {
        var line = "rx: \(modem), \(receiver(s, capture))"
        if let worst {
            line +=
                ", worst latency \(fixed(worst.total * 1000, 1)) ms from the end of a character to stdout "
                + "(worst parts: demodulator look-ahead \(fixed(worst.lookahead * 1000, 2)) ms, "
                + "audio held by the device \(fixed(worst.held * 1000, 1)) ms, "
                + "decoding and output \(fixed(worst.output * 1000, 2)) ms)"
        }
        return line + (interrupted ? " (interrupted)" : "")
    }

    /// Both directions of a live link.
    public static func both(_ decoded: DecodeStats, _ capture: CaptureCounters, _ playback: PlaybackCounters) -> String
    {
        "capture: \(receiver(decoded, capture)); playback: \(counters(playback))"
    }

    /// The `-v` line of a bridge's devices (and the reliable link's statistics).
    public static func bridge(_ report: BridgeReport) -> String {
        guard let link = report.link else {
            return "rx \(receiver(report.decoded, report.capture)); tx \(counters(report.playback))"
        }
        let s = link.sent
        let r = link.received
        return
            "reliable link: \(s.payloadBytes) bytes acknowledged"
            + (link.sendingSeconds > 0 ? " (\(rate(link.rate, over: "while sending")))" : "")
            + ", \(s.packetsSent) packets sent, \(s.retransmissions) retransmitted, "
            + "\(s.timeouts) timeouts, round trip \(Int((s.roundTrip * 1000).rounded())) ms, "
            + "packets of \(s.packetPayload) bytes; \(r.payloadBytes) bytes delivered, \(r.duplicates) duplicates, "
            + "\(r.repairedBytes) bytes repaired, \(link.damagedPackets) damaged packets, "
            + "\(r.acks) ACKs sent, \(link.echoesDropped) echoed packets dropped; "
            + both(report.decoded, report.capture, report.playback)
    }

    /// The line `send --device` ends with (with `-v`, or when not everything was
    /// acknowledged): what was acknowledged of `name` and how fast against the line's
    /// `baud` (8N1), the packets, and the round trip.
    public static func fileSent(_ report: FileSendReport, name: String, baud: Double) -> String {
        let s = report.statistics
        let rate = PayloadRate(bytes: s.payloadBytes, seconds: report.elapsed, lineBytesPerSecond: baud / 10)
        let share = Int((100 * rate.efficiency).rounded())
        let head =
            "\(name): \(s.payloadBytes) of \(report.totalBytes) bytes acknowledged in "
            + "\(fixed(report.elapsed, 1)) s (\(fixed(rate.bytesPerSecond, 1)) B/s), "
        let counts =
            "\(s.packetsSent) packets sent, \(s.retransmissions) retransmitted, \(s.timeouts) timeouts, \(s.acks) ACKs, "
            + "\(s.damagedPackets) damaged packets heard; "
        return head + counts + "\(share) % of line rate, "
            + "round trip \(Int((s.roundTrip * 1000).rounded())) ms, last packets \(s.packetPayload) bytes"
    }

    /// The `-v` line of `receive --device`: what arrived, how fast, and how it was repaired.
    public static func filesReceived(_ report: FileReceiveReport) -> String {
        let s = report.statistics
        return "\(s.payloadBytes) payload bytes, \(s.messages) messages in \(fixed(report.elapsed, 1)) s"
            + (report.receivingSeconds > 0 ? " (\(rate(report.rate, over: "from the first packet to the last")))" : "")
            + ", "
            + "\(s.damagedPackets) damaged packets, \(s.repairedBytes) bytes repaired, \(s.duplicates) duplicates, "
            + "\(s.held) held after a gap, \(s.acks) ACKs sent"
    }

    /// "94.1 B/s SPAN, 77 % of line rate", for the `-v` lines of the link's commands.
    public static func rate(_ r: PayloadRate, over span: String) -> String {
        "\(fixed(r.bytesPerSecond, 1)) B/s \(span), \(Int((100 * r.efficiency).rounded())) % of line rate"
    }
}
