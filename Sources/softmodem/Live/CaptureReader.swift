import ModemALSA

/// Reads what the capture thread queued, for the FSK and HiJack live receivers alike:
/// counts frames, reports each overrun (device or ring) once on stderr, and keeps the
/// wall-clock anchor of the stream's start (the earliest instant consistent with every read
/// so far: a sample cannot be delivered before it was recorded).
///
/// A capture that delivers no frames at all for ``CaptureWatchdog/limit`` seconds is a
/// runtime error naming the device and what to check; with ``waitsForDevice`` (the serial
/// bridge, which should outlive a sound server's restart) it is one warning instead, and
/// another when audio comes back.
struct CaptureReader {
    let capture: CaptureStream
    var waitsForDevice = false
    private var watchdog = CaptureWatchdog()
    private(set) var buffer: [Float]
    private var seenOverruns = 0
    private var seenDropped = 0
    /// Frames read since capture started.
    private(set) var received: Int64 = 0
    /// Wall-clock time (monotonic seconds) of the stream's first sample.
    private(set) var anchor = Double.infinity
    /// Wall-clock time (monotonic seconds) the last read that brought samples returned.
    private(set) var lastRead = 0.0
    /// Written before each overrun warning: a status line refreshed in place sets it to
    /// erase itself, so the warning gets a line of its own.
    var beforeWarning = ""

    init(capture: CaptureStream) {
        self.capture = capture
        buffer = [Float](repeating: 0, count: capture.pcm.periodFrames * 4)
    }

    var sampleRate: Double { Double(capture.sampleRate) }

    /// Waits up to `timeout` seconds for audio; returns how many frames are in ``buffer`` and
    /// whether an overrun happened since the last read (the caller restarts its decoder).
    mutating func read(timeout: Double) throws(CLIError) -> (frames: Int, overran: Bool) {
        let n: Int
        do {
            n = try buffer.withUnsafeMutableBufferPointer { b throws(ALSAError) in
                try capture.read(into: b, timeout: timeout)
            }
        } catch {
            throw CLIError(error)
        }
        let now = monotonicSeconds()
        let overruns = capture.overruns
        let dropped = capture.droppedFrames
        let overran = overruns != seenOverruns || dropped != seenDropped
        if overran {
            if !beforeWarning.isEmpty { Diagnostics.write(beforeWarning) }
            // A card's overrun loses an unknown stretch of audio; ring drops are counted.
            let ringLoss = dropped > 0 ? ", \(dropped) frames dropped by a slow reader" : ""
            Diagnostics.warning(
                "\(capture.pcm.device): capture overrun, audio lost (\(overruns) so far\(ringLoss)); resuming at the next start bit"
            )
            seenOverruns = overruns
            seenDropped = dropped
        }
        try watch(now: now)
        if n > 0 {
            received += Int64(n)
            anchor = min(anchor, now - Double(received) / sampleRate)
            lastRead = now
        }
        return (n, overran)
    }

    /// Applies the watchdog at `now`: throws on a stall unless ``waitsForDevice``.
    private mutating func watch(now: Double) throws(CLIError) {
        guard let event = watchdog.observe(capturedFrames: capture.capturedFrames, now: now) else { return }
        let device = capture.pcm.device
        switch event {
        case .stalled(let seconds):
            let line =
                "\(device): the capture delivered no audio for \(Diagnostics.number(seconds, 1)) s, not even silence "
                + "(\(Self.whatToCheck(device)))"
            guard waitsForDevice else { throw .runtime(line) }
            if !beforeWarning.isEmpty { Diagnostics.write(beforeWarning) }
            Diagnostics.warning(line + "; waiting for it")
        case .resumed(let seconds):
            if !beforeWarning.isEmpty { Diagnostics.write(beforeWarning) }
            Diagnostics.warning("\(device): capture resumed after \(Diagnostics.number(seconds, 1)) s without audio")
        }
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

    /// The `-v` line describing the capture device.
    func description(_ detail: String = "") -> String {
        let p = capture.pcm
        return "\(p.device): capture \(p.rateText), \(p.channels) channel(s)\(detail), \(p.format.rawValue), "
            + "period \(p.periodFrames) frames (\(Diagnostics.number(Double(p.periodFrames) * 1000 / Double(p.sampleRate))) ms), "
            + "buffer \(p.bufferFrames) frames" + (p.plugin.map { ", through the \($0) plugin" } ?? "")
    }

    var counters: String {
        "\(received) frames captured, \(capture.overruns) overruns recovered, \(capture.droppedFrames) frames dropped, "
            + (capture.isRealTime ? "real-time priority" : "ordinary priority")
    }
}
