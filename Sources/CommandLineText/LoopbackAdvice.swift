public import ModemCalibration

/// The loopback test's findings in words, for its table, its JSON and its page: one sentence
/// each, with what to do (the options named are the command line's).
public enum LoopbackAdvice {
    /// One sentence per finding of `verdict`, in its order.
    public static func lines(_ verdict: LoopbackVerdict) -> [String] { verdict.findings.map(text) }

    /// One finding in words.
    public static func text(_ finding: LoopbackFinding) -> String {
        switch finding {
        case .nothingReturned:
            "nothing came back: connect the output to the microphone input, check the capture device, "
                + "unmute it and raise its gain (alsamixer)"
        case .playAt(let level): "play at --amplitude \(number(level)) dBFS"
        case .clipsEvenAt(let level): "even \(number(level)) dBFS clips: turn the capture gain (and any mic boost) down"
        case .captureClips(let clip, let level):
            "the capture clips at \(number(clip)) dBFS: turn the capture gain or mic boost down, "
                + "or keep the output at or below \(number(level)) dBFS"
        case .arrivesWeak(let arrives, let level):
            "the signal arrives weak (\(number(arrives)) dBFS at \(number(level)) dBFS out): "
                + "raise the capture gain or the output volume"
        case .noisy(let above, let floor):
            "noisy capture: the signal is only \(number(above)) dB above the noise floor (\(number(floor)) dBFS)"
        case .hum(let f, let level):
            "mains hum at \(number(f)) Hz (\(number(level)) dBFS): a ground loop; run the laptop on battery or use an isolator"
        case .resampler:
            "a sample-rate converter sits in the path (the response falls steeply near the top of the band): "
                + "use hw:CARD,DEV, or --rate at the sound server's own rate (often 48000)"
        case .rateOff(let percent):
            "the capture runs \(number(percent))% off the playback rate: the device is not at the rate asked for"
        case .clockDrift(let ppm): "playback and capture clocks differ by \(number(ppm)) ppm"
        case .agc(let played, let captured):
            "automatic gain control levels the input (\(number(played)) dB step came back as \(number(captured)) dB): "
                + "turn off AGC and noise suppression (alsamixer 'Auto Gain Control', PulseAudio echo-cancel, phone audio effects)"
        case .lowPass(let edge):
            "the path cuts above \(hz(edge)) (a low-pass or a voice channel): only profiles with tones below it work"
        case .highPass(let edge): "the path cuts below \(hz(edge))"
        case .notch(let f): "a notch near \(hz(f)): noise suppression or an equaliser; turn it off"
        case .weakPowerTone(let f, let down):
            "the HiJack power tone (\(hz(f))) comes back \(number(down)) dB down: this path would not power a board"
        case .inverted: "the path inverts polarity (harmless: the decoders follow it)"
        case .byteErrors(let modem, let errors, let sent, let received):
            "\(modem): \(errors) byte error(s) in \(sent) bytes (\(received) received)"
        case .working(let profiles): "working: " + profiles.joined(separator: ", ")
        case .noProfileTones: "no profile's tones pass this path"
        }
    }

    /// A frequency: Hz below 1 kHz, kHz to one decimal above.
    static func hz(_ f: Double) -> String { f < 1000 ? "\(Int(f.rounded())) Hz" : number(f / 1000) + " kHz" }

    /// A number: whole numbers without a fraction, others to one decimal.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "\(x)" }
        let r = (x * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
