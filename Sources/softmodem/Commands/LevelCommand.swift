import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import ModemALSA
import ModemDSP

/// `softmodem level`: a live input meter for setting levels before decoding.
struct LevelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "level",
        abstract: "Live input meter: peak and RMS in dBFS, clipping, detected tones, SNR and a hint.",
        discussion: """
            Refreshes in place on a terminal (10 times a second); otherwise prints a line \
            per second. The profile's mark and space tones are measured; SNR compares them \
            with everything else in the band. Runs until SIGINT/SIGTERM or --duration.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    func run() throws {
        if let duration, !(duration.isFinite && duration > 0) { throw CLIError.usage("--duration must be a positive number of seconds") }
        let profile = try modem.resolvedProfile()
        StopSignal.install()
        let capture: CaptureStream
        do {
            capture = try CaptureStream(device: audio.device, sampleRate: audio.rate, periodFrames: audio.periodFrames,
                                        periods: LiveAudioOptions.periods)
        } catch {
            throw CLIError(error)
        }
        let rate = Double(capture.sampleRate)
        let window = max(64, Int(rate / 10))
        var block = [Float](repeating: 0, count: window)
        var filled = 0
        let tty = Diagnostics.stderrIsTerminal
        var windows = 0
        var seenOverruns = 0
        var pending: String?
        let started = monotonicSeconds()
        capture.start()
        defer { capture.stop() }
        while !StopSignal.isRequested {
            if let duration, monotonicSeconds() - started >= duration { break }
            let n: Int
            do {
                n = try block.withUnsafeMutableBufferPointer { b in
                    try capture.read(into: UnsafeMutableBufferPointer(rebasing: b[filled...]), timeout: 0.1)
                }
            } catch let e as CLIError {
                throw e
            } catch {
                throw CLIError.runtime("\(error)")
            }
            filled += n
            guard filled == window else { continue }
            filled = 0
            windows += 1
            if capture.overruns != seenOverruns {
                seenOverruns = capture.overruns
                Diagnostics.warning("\(audio.device): capture overrun (\(seenOverruns) so far)")
            }
            let line = block.withUnsafeBufferPointer { LevelMeasurement($0, rate: rate, profile: profile) }.summary
            if tty {
                Diagnostics.write("\r\u{1b}[K" + line)
            } else if windows % 10 == 0 {
                Diagnostics.write(line + "\n")
                pending = nil
            } else {
                pending = line
            }
        }
        // Not on a terminal: the latest reading is always printed, even for a short run.
        if tty { Diagnostics.write("\n") } else if let pending { Diagnostics.write(pending + "\n") }
    }
}

/// Level, tones and SNR of one block of input.
struct LevelMeasurement {
    var peak: Double = 0
    var rms: Double = 0
    var markPower = 0.0, spacePower = 0.0, totalPower = 0.0
    var strongest = 0.0
    let profile: ModemProfile

    init(_ x: UnsafeBufferPointer<Float>, rate: Double, profile: ModemProfile) {
        self.profile = profile
        var sum = 0.0, mean = 0.0
        for v in x { let d = Double(v); peak = max(peak, abs(d)); sum += d * d; mean += d }
        let n = Double(max(1, x.count))
        mean /= n
        totalPower = max(0, sum / n - mean * mean)
        rms = (sum / n).squareRoot()
        markPower = Self.tonePower(x, frequency: profile.mark, rate: rate)
        spacePower = Self.tonePower(x, frequency: profile.space, rate: rate)
        // Coarse scan for the strongest tone, so a wrong profile shows up as "tone at X Hz".
        var best = 0.0
        var f = 300.0
        while f < min(rate / 2 - 100, 12_000) {
            let p = Self.tonePower(x, frequency: f, rate: rate)
            if p > best { best = p; strongest = f }
            f += 50
        }
        if best < 1e-9 { strongest = 0 }
    }

    /// Power of a sine at `frequency` (full-scale sine = 0.5), by the Goertzel recurrence.
    static func tonePower(_ x: UnsafeBufferPointer<Float>, frequency: Double, rate: Double) -> Double {
        let w = 2 * Double.pi * frequency / rate
        let c = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for v in x { let s0 = Double(v) + c * s1 - s2; s2 = s1; s1 = s0 }
        let power = s1 * s1 + s2 * s2 - c * s1 * s2
        let n = Double(max(1, x.count))
        return 2 * power / (n * n)
    }

    var summary: String {
        let peakDB = decibels(power: peak * peak), rmsDB = decibels(power: rms * rms)
        let tones = markPower + spacePower
        let snr = decibels(power: tones / max(1e-12, totalPower - tones))
        let toneText = strongest > 0 ? "strongest tone \(Int(strongest)) Hz" : "no tone"
        let hint: String
        if peak >= 0.99 { hint = "CLIPPING: turn it down" }
        else if peak < 0.01 { hint = "no signal: turn the volume up (or check the cable)" }
        else if peakDB < -30 { hint = "weak: turn the volume up" }
        else if tones < 0.25 * totalPower { hint = "level ok, but no \(profile.name) tones: check the profile" }
        else { hint = "ok" }
        return "peak \(Diagnostics.number(peakDB)) dBFS  rms \(Diagnostics.number(rmsDB)) dBFS  \(toneText)  "
            + "mark \(Diagnostics.number(decibels(power: markPower * 2))) space \(Diagnostics.number(decibels(power: spacePower * 2))) dBFS  "
            + "SNR \(Diagnostics.number(snr)) dB  \(hint)"
    }
}
