public import ModemAudioIO
public import ModemDSP
public import ModemFraming
public import ModemSystem

/// A file as reliable-link packets in a recording (`send FILE -o OUT`): the header message
/// (name, size, CRC-32), then the content, each packet one burst followed by a gap, every
/// packet sent ``Settings/repeats`` times. A recording has no one to answer a hello, so packets
/// fit the board's receive ring (``LinkCapabilities/arduinoRing``).
///
/// The file is read twice, in 64 KB chunks, and never held whole: once for its size and
/// CRC-32, once for its content. A file that changes in between ends with the size first
/// read.
public enum LinkRecording {
    /// How the recording is made.
    public struct Settings: Sendable {
        /// The profile sent: its encoded form (``ModemProfile/encoded``: the board's own
        /// unequal bits for the slow SoftModem profiles) makes the signal, its nominal bit rate
        /// the link's timing.
        public var profile: ModemProfile
        /// The character format (8N1 for the board).
        public var format: FrameFormat
        /// Samples a second of the recording.
        public var sampleRate: Double
        /// Mark bits before each burst.
        public var preambleBits: Int
        /// Times each packet is sent (the receiver keeps the first good copy).
        public var repeats: Int
        /// Silence after each burst, seconds (the far end's turnaround).
        public var gapSeconds: Double

        /// Settings as `send` takes them from its options.
        public init(
            profile: ModemProfile, format: FrameFormat, sampleRate: Double, preambleBits: Int, repeats: Int,
            gapSeconds: Double
        ) {
            self.profile = profile
            self.format = format
            self.sampleRate = sampleRate
            self.preambleBits = preambleBits
            self.repeats = repeats
            self.gapSeconds = gapSeconds
        }
    }

    /// What was written.
    public struct Summary: Sendable, Equatable {
        /// The header: the file's base name, size and CRC-32.
        public var header: FileHeader
        /// Bursts written, repeats included.
        public var bursts: Int
        /// Seconds of audio, about (each burst as long as a full ring's packet, and its gap).
        public var seconds: Double
    }

    /// Why a recording could not be made.
    public enum Failure: Error, Sendable {
        /// The file could not be read.
        case input(SystemError)
        /// The recording could not be written.
        case output(AudioIOError)
        /// The profile cannot be sent at the rate.
        case modem(ModemConfigurationError)
    }

    /// Writes `file` to the audio file `output` (`-`: a WAV stream on stdout).
    public static func write(file: String, to output: String, _ s: Settings) throws(Failure) -> Summary {
        let input: InputFile
        var header = FileHeader(name: FilePaths.baseName(file), size: 0, crc: 0)
        do {
            input = try InputFile(path: file)
            while true {
                let chunk = try input.read(upTo: 1 << 16)
                if chunk.isEmpty { break }
                header.size += UInt64(chunk.count)
                header.crc = CRC32.update(header.crc, chunk)
            }
        } catch {
            throw .input(error)
        }
        let modulator: FSKModulator
        do { modulator = try FSKModulator(profile: s.profile.encoded, sampleRate: s.sampleRate, amplitude: 0.9) } catch
        {
            throw .modem(error)
        }
        var writer = try BurstWriter(s, modulator: modulator, to: output)
        var packetizer = FilePacketizer(maxPayload: writer.link.maxPayload)
        try writer.emit(packetizer.header(header))
        do { try input.rewind() } catch { throw .input(error) }
        var sent: UInt64 = 0
        while true {
            let chunk: [UInt8]
            do { chunk = try input.read(upTo: 1 << 16) } catch { throw .input(error) }
            sent += UInt64(chunk.count)
            let done = chunk.isEmpty || sent >= header.size
            try writer.emit(packetizer.content(chunk, isLast: done))
            if done { break }
        }
        do { try writer.recording.finish() } catch { throw .output(error) }
        let seconds = Double(writer.bursts) * (writer.link.airtime(bytes: writer.ring) + s.gapSeconds)
        return Summary(header: header, bursts: writer.bursts, seconds: seconds)
    }
}

/// Packets to bursts in the recording (``TransmitterRecording``): each burst, then its gap.
private struct BurstWriter {
    let settings: LinkRecording.Settings
    let link: LinkConfiguration
    /// Bytes a burst may carry (the board's ring).
    let ring: Int
    var recording: TransmitterRecording<BurstEncoder>
    var bursts = 0

    init(_ s: LinkRecording.Settings, modulator: FSKModulator, to output: String) throws(LinkRecording.Failure) {
        settings = s
        let encoder = BurstEncoder(
            modulator: modulator, format: s.format, preambleBits: s.preambleBits, postambleBits: 7)
        link = LinkConfiguration(capabilities: .arduinoRing, baud: s.profile.baud, preambleBits: s.preambleBits)
        ring = link.capabilities.burstBytes ?? 31
        do {
            let sink = try AudioSink(path: output, sampleRate: Int(s.sampleRate), layout: .mono, float: false)
            recording = TransmitterRecording(encoder, sink: sink, bytesPerPiece: ring)
        } catch {
            throw .output(error)
        }
    }

    /// Each packet `repeats` times, a burst each, with the gap of silence after.
    mutating func emit(_ list: [LinkPacket]) throws(LinkRecording.Failure) {
        for p in list {
            let wire = p.wireBytes
            for _ in 0..<settings.repeats {
                do throws(AudioIOError) {
                    try wire.withUnsafeBufferPointer { b throws(AudioIOError) in try recording.encode(b) }
                    try recording.finishBurst()
                    try recording.rest(seconds: settings.gapSeconds)
                } catch {
                    throw .output(error)
                }
                bursts += 1
            }
        }
    }
}
