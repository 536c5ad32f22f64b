public import ModemAudioIO
public import ModemDSP
public import ModemDecoding
public import ModemFraming

/// Why a live session (capture, playback, a bridge, the link) ended. Values, not prose: a
/// program embedding the modem branches on them, and the command line words them.
public enum LiveError: Error {
    /// A device could not be opened or failed while in use.
    case device(AudioDeviceError)
    /// The capture delivered no frames at all (not even silence) for `seconds`.
    case captureStalled(device: String, seconds: Double)
    /// The transmitter cannot be made at the device's rate.
    case transmitter(TransmitterSetupError)
    /// The receiver cannot run on the capture (channel, rate).
    case decoding(DecodeSessionError)
    /// Writing the recording of the capture failed.
    case recording(AudioIOError)
    /// Delivering decoded bytes failed.
    case output(AudioIOError)
    /// A byte stream (standard input, a pseudo-terminal) failed: `errno` from `operation`.
    case stream(name: String, operation: StreamOperation, errno: Int32)
    /// A received stream was not whole files (``FileAssembly/Failure``).
    case fileTransfer(FileAssembly.Failure)
    /// The store could not take a received file.
    case fileStore(FileStoreError)

    /// What was being done to a byte stream when it failed.
    public enum StreamOperation: Sendable, Equatable {
        case waiting, reading, writing
    }
}

/// Why a transmitter cannot be made from its settings at a sample rate.
public enum TransmitterSetupError: Error, Equatable {
    /// The modem's own settings (profile, level, HiJack line) cannot work at the rate.
    case modem(ModemConfigurationError)
    /// The HiJack power tone's level is not within 0...1 of full scale.
    case powerAmplitude(Double)
    /// The HiJack power tone cannot be made at the rate.
    case powerTone(HiJackConfigurationError)
}

/// Which way audio goes through a device.
public enum AudioDirection: Sendable, Equatable {
    case capture, playback
}

/// What a live session reports while it runs, for a person or a log: nothing here ends the
/// session. ``LiveNoticeHandler`` receives them as they happen.
public enum LiveNotice: Equatable {
    /// A capture opened; `channel` is the 0-based channel decoded.
    case captureOpened(AudioDeviceInfo, channel: Int)
    /// A playback opened, kept running between bursts when `keptOpen`.
    case playbackOpened(AudioDeviceInfo, keptOpen: Bool)
    /// The device lost audio (`overruns` so far; `droppedFrames` lost by a slow reader):
    /// decoding resumes at the next start bit.
    case overrun(device: String, overruns: Int, droppedFrames: Int)
    /// The capture delivered nothing for `seconds`; the session waits for it.
    case captureStalled(device: String, seconds: Double)
    /// Audio came back after `seconds` without.
    case captureResumed(device: String, seconds: Double)
    /// A device went away (`error`); the session reopens it when it returns.
    case deviceLost(AudioDeviceError, AudioDirection)
    /// A device was opened again after it went away.
    case deviceReopened(AudioDeviceInfo, AudioDirection)
    /// The reliable link is running: the output path's delay measured and the first ACK
    /// timeout it chose (later ones follow the measured round trip).
    case reliableLinkStarted(pathDelay: Double, ackTimeout: Double)
    /// The far end answered the opening exchange: what both ends agreed, and whether data and
    /// acknowledgements may overlap (false on a line that echoes us).
    case reliableLinkAgreed(LinkCapabilities, fullDuplex: Bool)
    /// The far end answered no hello: the link sends as to a board running the first link
    /// version (these capabilities) and asks again now and then; an answer later brings
    /// ``reliableLinkAgreed(_:fullDuplex:)``.
    case reliableLinkUnanswered(LinkCapabilities)
    /// The far end acknowledged nothing for `seconds` while `unacknowledged` bytes wait.
    case reliableLinkStalled(unacknowledged: Int, seconds: Double)
    /// A file arrived whole over the link (size and CRC-32 as its header said).
    case fileReceived(FileHeader)
    /// The loopback test's streams had a gap; that part of its timeline is played again.
    case timelineReplayed
}

extension AudioDeviceError: Equatable {
    /// Equal when the reason, the device and the backend's account all match.
    public static func == (a: AudioDeviceError, b: AudioDeviceError) -> Bool {
        a.reason == b.reason && a.device == b.device && a.description == b.description
    }
}

/// Receives a live session's notices (swappable: the command line words them on stderr,
/// tests collect them in a ``NoticeLog``).
public protocol LiveNoticeHandler: AnyObject {
    /// Takes one notice, on the session's thread, as it happens.
    func notice(_ notice: LiveNotice)
}

/// Keeps every notice, in order: for tests and for programs that look at them afterwards.
public final class NoticeLog: LiveNoticeHandler {
    /// Every notice received, oldest first.
    public private(set) var notices: [LiveNotice] = []

    /// An empty log.
    public init() {}

    /// Keeps `notice` after those already received.
    public func notice(_ notice: LiveNotice) { notices.append(notice) }
}
