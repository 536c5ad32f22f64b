import BoardModels
public import ModemDSP
import ModemDecoding

#if canImport(Glibc)
    import Glibc
#endif

/// `bench ber`'s measurement: one continuous burst of seeded random bytes (50 mark bits
/// before, 7 after, 0.1 s of silence around) decoded through white Gaussian noise at each
/// SNR, beside the BFSK limits for the profile's tone spacing.
///
/// The same settings and SNR give the same point on every run: the bytes come from `seed`,
/// the noise of point `index` from `seed * 1000003 + index`.
public struct ErrorRateBench {
    /// One SNR's figures.
    public struct Point: Sendable {
        /// Full-band SNR (signal power over noise power across 0..fs/2), dB.
        public var snr: Double
        /// SNR + 10 log10((fs/2)/baud), dB.
        public var ebN0: Double
        /// Bytes in the burst.
        public var bytesSent: Int
        /// Bytes the pinned demodulator delivered.
        public var bytesDecoded: Int
        /// Edit distance between the bytes sent and decoded.
        public var byteErrors: Int
        /// ``byteErrors`` over ``bytesSent``.
        public var byteErrorRate: Double
        /// Differing bits after aligning by the edit distance (a missing or extra byte counts
        /// 8), over 8 x ``bytesSent``.
        public var bitErrorRate: Double
        /// The non-coherent BFSK bit error rate at this Eb/N0 for the profile's tone spacing.
        public var theoryNonCoherentBitErrorRate: Double
        /// The coherent BFSK bit error rate at this Eb/N0 for the profile's tone spacing.
        public var theoryCoherentBitErrorRate: Double
        /// 1 - (1 - p)^(bits per character), p the non-coherent bit error rate.
        public var theoryNonCoherentByteErrorRate: Double
        /// minimodem's rates on the same samples, when it was asked.
        public var minimodemByteErrorRate: Double?
        /// minimodem's bit error rate, when it was asked.
        public var minimodemBitErrorRate: Double?
        /// The rates with no options (detection, as `decode` does), when asked.
        public var autoByteErrorRate: Double?
        /// The bit error rate with no options, when asked.
        public var autoBitErrorRate: Double?
    }

    /// The profile sent and pinned.
    public let profile: ModemProfile
    /// The character format sent and pinned.
    public let format: FrameFormat
    /// Samples a second of the signal.
    public let sampleRate: Double
    private let seed: UInt64
    private let configuration: DemodulatorConfiguration
    private let clean: [Float]
    private let sent: [UInt8]
    /// Peak level of the burst: headroom so that the 16-bit file minimodem reads does not
    /// clip the noise at -4 dB SNR.
    private static let amplitude: Float = 0.15

    /// Makes the clean burst of `bytes` bytes once. Throws when the profile cannot run at
    /// `sampleRate` or the squelch is impossible.
    public init(
        profile: ModemProfile, format: FrameFormat, sampleRate: Double, bytes: Int, seed: UInt64, squelch: Double
    ) throws(BenchError) {
        self.profile = profile
        self.format = format
        self.sampleRate = sampleRate
        self.seed = seed
        configuration = DemodulatorConfiguration(
            profile: profile, sampleRate: sampleRate, format: format, squelch: squelch)
        var generator = SeededGenerator(seed: seed)
        let payload = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        do {
            try configuration.validate()
            let modulator = try FSKModulator(profile: profile, sampleRate: sampleRate, amplitude: Self.amplitude)
            var encoder = BurstEncoder(modulator: modulator, format: format, preambleBits: 50, postambleBits: 7)
            let silence = Int(0.1 * sampleRate)
            clean = encoder.burst(
                payload.map { $0 & format.valueMask }, leadingSilence: silence, trailingSilence: silence)
        } catch {
            throw .configuration(error, context: nil)
        }
        sent = payload.map { $0 & format.valueMask }
    }

    /// Point number `index` at `snr` dB; with `minimodemPath`, minimodem decodes the same
    /// samples; with `auto`, so does detection.
    public func measure(snr: Double, index: Int, minimodemPath: String?, auto: Bool) throws(BenchError) -> Point {
        var noisy = clean
        let signalPower = Double(Self.amplitude * Self.amplitude) / 2
        var noise = WhiteNoiseChannel(signalPower: signalPower, snr: snr, seed: seed &* 1_000_003 &+ UInt64(index))
        noise.process(&noisy)
        let decoded = try decodePinned(noisy)
        let errors = TransmissionErrors(sent: sent, decoded: decoded)
        let ebN0 = snr + Decibels.power(sampleRate / 2 / profile.baud)
        let linear = Decibels.powerRatio(ebN0)
        // Tone spacing over bit rate: 2 for SoftModem (orthogonal tones), 0.83 for Bell 202
        // and 0.67 for Bell 103, whose correlated tones have limits of their own.
        let modulationIndex = abs(profile.mark - profile.space) / profile.baud
        let nc = FSKErrorTheory.nonCoherentBitErrorRate(ebN0: linear, modulationIndex: modulationIndex)
        var point = Point(
            snr: snr, ebN0: ebN0, bytesSent: sent.count, bytesDecoded: decoded.count,
            byteErrors: errors.byteErrors, byteErrorRate: errors.byteErrorRate,
            bitErrorRate: errors.bitErrorRate, theoryNonCoherentBitErrorRate: nc,
            theoryCoherentBitErrorRate: FSKErrorTheory.coherentBitErrorRate(
                ebN0: linear, modulationIndex: modulationIndex),
            theoryNonCoherentByteErrorRate: 1 - pow(1 - nc, Double(format.bitsPerFrame)))
        if let minimodemPath {
            let other = try MinimodemArguments.decode(minimodemPath, noisy, sampleRate: sampleRate, profile: profile)
            let e = TransmissionErrors(sent: sent, decoded: other)
            point.minimodemByteErrorRate = e.byteErrorRate
            point.minimodemBitErrorRate = e.bitErrorRate
        }
        if auto {
            let e = TransmissionErrors(sent: sent, decoded: try decodeWithNoOptions(noisy))
            point.autoByteErrorRate = e.byteErrorRate
            point.autoBitErrorRate = e.bitErrorRate
        }
        return point
    }

    private func decodePinned(_ samples: [Float]) throws(BenchError) -> [UInt8] {
        var demod: FSKDemodulator
        do { demod = try FSKDemodulator(configuration) } catch { throw .configuration(error, context: nil) }
        var events: [ModemEvent] = []
        var out: [UInt8] = []
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(4096, all.count - i)
                events.removeAll(keepingCapacity: true)
                demod.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), into: &events)
                for e in events where e.kind == .byte { out.append(e.value) }
                i += n
            }
        }
        events.removeAll()
        demod.flush(into: &events)
        for e in events where e.kind == .byte { out.append(e.value) }
        return out
    }

    /// Decodes as `decode` with no options does: detection, the standard observers, and
    /// nothing delivered that detection could not prove (``DecodeSession``).
    private func decodeWithNoOptions(_ samples: [Float]) throws(BenchError) -> [UInt8] {
        let settings = AutoSettings()
        let rate = sampleRate
        var session: DecodeSession<AutoReceiver>
        do {
            session = try DecodeSession(settings, sampleRate: rate, channels: 1, channel: nil, name: "bench") {
                settings.observers(.input(verbose: false), sampleRate: rate, reporter: SilentReporter())
            }
        } catch {
            throw .session(error)
        }
        var out: [UInt8] = []
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(4096, all.count - i)
                session.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), frames: n)
                for e in session.delivered where e.kind == .byte { out.append(e.value) }
                i += n
            }
        }
        session.finish()
        for e in session.delivered where e.kind == .byte { out.append(e.value) }
        return out
    }
}
