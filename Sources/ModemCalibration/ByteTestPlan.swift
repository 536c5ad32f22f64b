public import ModemDSP
import ModemFraming

/// The byte-test timeline: an alignment chirp, then one burst of seeded random bytes per
/// modem at one level, with silence between the bursts and a silent tail for the latency.
///
/// HiJack sends its data line only (no power tone: to the capture it would only be noise), in
/// its generation's line code; a lab11 burst is one packet whose last byte is the sum of the
/// others, as its receivers demand. `.auto` has no transmitter and gets no burst.
public struct ByteTestPlan: Sendable {
    /// One modem's burst: what was sent, and where in the timeline.
    public struct Burst: Sendable, Equatable {
        /// The modem that sends the burst.
        public var modem: Modem
        /// The bytes sent; for lab11, one packet whose last byte is its checksum.
        public var bytes: [UInt8]
        /// Where the burst's audio lies in the timeline, in samples.
        public var segment: LoopbackPlan.Segment
    }

    /// Sample rate of the timeline in Hz.
    public let sampleRate: Double
    /// Peak level of every burst, in dBFS.
    public let levelDBFS: Double
    /// The alignment chirp, the same as ``LoopbackPlan``'s.
    public let chirp: [Float]
    /// Where the chirp lies in the timeline; the capture is aligned on it.
    public let openingChirp: LoopbackPlan.Segment
    /// One burst per modem that has a transmitter, in the order given (none for `.auto`).
    public let bursts: [Burst]
    /// The whole timeline to play, silence tail included.
    public let signal: [Float]

    /// Bursts for `modems` at peak `levelDBFS`; throws when a modem cannot work at
    /// `sampleRate`.
    public init(sampleRate: Double, modems: [Modem], levelDBFS: Double, seed: UInt64 = 20)
        throws(ModemConfigurationError)
    {
        self.sampleRate = sampleRate
        self.levelDBFS = levelDBFS
        var w = TestSignalWriter(sampleRate: sampleRate)
        chirp = LoopbackPlan.makeChirp(sampleRate: sampleRate)
        w.silence(seconds: 0.25)
        openingChirp = LoopbackPlan.Segment(start: w.position, count: chirp.count)
        w.append(chirp)
        w.silence(seconds: 0.3)
        var random = seed
        var bursts: [Burst] = []
        let amplitude = Float(Decibels.linear(levelDBFS))
        for modem in modems {
            var bytes = (0..<Self.byteCount(modem)).map { _ in Self.nextByte(&random) }
            if case .hijack(let settings) = modem, settings.generation.isBitStream {
                // A lab11 packet is delivered only when its last byte is its checksum.
                bytes = HiJackLab11Packet(header: bytes[0], payload: Array(bytes[1..<(bytes.count - 1)])).raw
            }
            let audio: [Float]
            switch modem {
            case .fsk(let settings):
                let modulator = try FSKModulator(
                    profile: settings.profile, sampleRate: sampleRate, amplitude: amplitude)
                var t = BurstEncoder(modulator: modulator, format: settings.format)
                audio = Self.render(&t, bytes)
            case .hijack(let settings):
                do throws(HiJackConfigurationError) {
                    let encoder = try HiJackEncoder(
                        sampleRate: sampleRate, baud: settings.sendBaud, bytePeriod: settings.bytePeriod,
                        amplitude: amplitude, invert: settings.invert, generation: settings.generation)
                    let tone = try HiJackPowerTone(
                        frequency: settings.generation.powerTone(sampleRate: sampleRate).frequency,
                        sampleRate: sampleRate, amplitude: 0)
                    var t = try HiJackTransmitter(encoder: encoder, tone: tone)
                    audio = Self.render(&t, bytes)
                } catch {
                    throw .hijack(error)
                }
            case .auto:
                continue
            }
            bursts.append(
                Burst(modem: modem, bytes: bytes, segment: LoopbackPlan.Segment(start: w.position, count: audio.count)))
            w.append(audio)
            w.silence(seconds: 0.15)
        }
        w.silence(seconds: LoopbackPlan.maxLatency + 0.1)
        self.bursts = bursts
        signal = w.samples
    }

    /// Bytes per burst: about 0.3 s of characters, 4 to 32 of them.
    static func byteCount(_ modem: Modem) -> Int {
        switch modem {
        case .fsk(let s): return min(32, max(4, Int(s.profile.baud * 0.3 / 10)))
        case .hijack: return 8
        case .auto: return 0
        }
    }

    /// A burst of `bytes`, first channel only.
    static func render<T: ModemTransmitter>(_ t: inout T, _ bytes: [UInt8]) -> [Float] {
        let channels = t.channels
        var frames = [Float](
            repeating: 0, count: (t.maxFrames(forBytes: bytes.count) + t.maxFramesForFinish) * channels)
        let n = frames.withUnsafeMutableBufferPointer { out in
            let written = bytes.withUnsafeBufferPointer { t.encode($0, into: out.baseAddress!) }
            return written + t.finishBurst(into: out.baseAddress! + written * channels)
        }
        return stride(from: 0, to: n * channels, by: channels).map { frames[$0] }
    }

    /// The next byte of a seeded xorshift sequence.
    private static func nextByte(_ state: inout UInt64) -> UInt8 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 32)
    }
}
