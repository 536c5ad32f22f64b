import CommandLineText
import ModemALSA
import ModemFraming
import ModemLive

#if canImport(Glibc)
    import Glibc
#endif

extension CLIError {
    /// Device problems are runtime errors; the message names the device and, when the
    /// device is the problem, lists the ones that exist.
    init(_ error: ALSAError) {
        self.init(kind: .runtime, message: error.description + (error.reason == .noAnswer ? Self.soundServerHint : ""))
    }

    /// Where to look when a device does not answer: the sound servers behind it.
    static let soundServerHint =
        "; is the sound server running and responsive? check 'pactl info' or "
        + "'systemctl --user status pipewire pipewire-pulse pulseaudio'"

    /// A live session's end, in one line: settings that cannot work are usage errors,
    /// devices and streams runtime ones.
    init(_ error: LiveError) {
        switch error {
        case .device(let e):
            self.init(kind: .runtime, message: e.description + (e.reason == .noAnswer ? Self.soundServerHint : ""))
        case .captureStalled(let device, let seconds):
            self.init(kind: .runtime, message: LiveNoticeText.stall(device, seconds))
        case .transmitter(.modem(let e)):
            self.init(e)
        case .transmitter(.powerAmplitude(let level)):
            self.init(kind: .usage, message: "--power-amplitude must be between 0 and 1 (full scale), not \(level)")
        case .transmitter(.powerTone(let e)):
            self.init(kind: .usage, message: "--power-tone: \(e)")
        case .decoding(let e):
            self.init(e)
        case .recording(let e), .output(let e):
            self.init(e)
        case .stream(let name, let operation, let code):
            let what =
                switch operation {
                case .waiting: "error waiting for"
                case .reading: "error reading"
                case .writing: "cannot write to"
                }
            self.init(kind: .runtime, message: "\(what) \(name): \(String(cString: strerror(code)))")
        case .fileTransfer(let failure):
            self.init(failure)
        case .fileStore(let e):
            self.init(kind: .runtime, message: "cannot write \(e.path): \(e.reason)")
        }
    }

    /// A received stream that was not whole files.
    init(_ failure: FileAssembly.Failure) {
        switch failure {
        case .headerTooLong:
            self.init(kind: .runtime, message: "the stream does not start with a file header")
        case .invalidHeader:
            self.init(kind: .runtime, message: "the stream does not start with a valid file header")
        case .mismatch(let h, let received, let crc):
            self.init(
                kind: .runtime,
                message:
                    "\(h.name): got \(received) of \(h.size) bytes, CRC-32 \(String(crc, radix: 16)) instead of \(String(h.crc, radix: 16)); kept as \(h.name).part"
            )
        case .incomplete(let h, let received):
            self.init(
                kind: .runtime,
                message:
                    "\(h.name): incomplete, \(received) of \(h.size) bytes (kept as \(h.name).part); a packet was lost, try send --repeat"
            )
        case .noFile:
            self.init(kind: .runtime, message: "no file found in the audio")
        }
    }

    /// The loopback test's path: its devices' failures as any live session's.
    init(_ error: LoopbackPathError) {
        switch error {
        case .device(let e): self.init(LiveError.device(e))
        case .interrupted: self.init(kind: .runtime, message: "loopback: interrupted")
        case .gapTwice:
            self.init(
                kind: .runtime,
                message: "loopback: the audio streams had a gap (an overrun or underrun on a busy machine) twice, "
                    + "so the timing is lost; run again, with a larger --latency (e.g. 200)")
        case .captureStalled(let device, let seconds):
            self.init(kind: .runtime, message: LiveNoticeText.stall(device, seconds))
        case .captureStopped(let device):
            self.init(kind: .runtime, message: "\(device): the capture stopped delivering audio")
        case .playbackStopped(let device):
            self.init(kind: .runtime, message: "\(device): the playback stopped taking audio")
        }
    }

    /// Files taken back from recordings: each failure as its own kind says it.
    init(_ failure: LinkRecording.ReadFailure) {
        switch failure {
        case .session(let e): self.init(e)
        case .audio(let e): self.init(e)
        case .store(let e): self.init(e)
        case .unfinished(let e): self.init(e)
        }
    }
}
