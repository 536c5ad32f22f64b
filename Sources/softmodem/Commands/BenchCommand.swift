import ArgumentParser
import BoardModels
import ModemDSP
import ModemDecoding
import ModemFraming

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem bench`: measurements of the modem itself.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the modem (sensitivity, speed) and the reliable link.",
        subcommands: [BitErrorRateCommand.self, BenchSpeedCommand.self, BenchLinkCommand.self])
}

/// `softmodem bench ber`: bit and byte error rate against white Gaussian noise.
struct BitErrorRateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ber",
        abstract: "Bit and byte error rates in white noise, with the theoretical BFSK limits.",
        discussion: """
            For each full-band SNR (signal power over noise power across 0..fs/2) sends \
            --bytes random bytes as ONE continuous burst \
            (50 mark bits before, 7 after, 0.1 s silence around, noise everywhere), decodes it \
            with the default demodulator and prints one row per SNR on stdout.

            Byte error rate = edit distance between sent and decoded bytes (missing, extra and \
            wrong bytes each count 1) / bytes sent. Bit error rate: after aligning the two \
            sequences by that edit distance, a wrong byte counts its differing bits and a \
            missing or extra byte counts 8; divided by 8 x bytes sent. Beside each row: \
            Eb/N0 = SNR + 10 log10((fs/2)/baud), the non-coherent and coherent BFSK bit \
            error rates for the profile's tone spacing (orthogonal tones, as SoftModem's: \
            0.5 exp(-Eb/2N0) and 0.5 erfc(sqrt(Eb/2N0)), 1e-3 at Eb/N0 9.8 dB; the correlated \
            tones of Bell 202 and Bell 103 need more, see docs/benchmarks.md), and the non-coherent \
            byte error rate 1 - (1 - p)^(bits per character). Seeds are fixed: the same command \
            prints the same table.
            """)

    @OptionGroup var modem: ProfileOptions

    @OptionGroup var signal: BenchSignalOptions
    private var rate: Double { signal.rate }
    private var seed: UInt64 { signal.seed }

    @Option(name: .long, help: ArgumentHelp("Random bytes per SNR point (at least 1).", valueName: "n"))
    var bytes = 3000

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("First SNR in dB.", valueName: "db"))
    var snrFrom: Double = -4

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Last SNR in dB.", valueName: "db"))
    var snrTo: Double = 4

    @Option(name: .long, help: ArgumentHelp("SNR step in dB.", valueName: "db"))
    var snrStep: Double = 1

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Demodulator squelch (minimum Eb/N0 in dB).", valueName: "db"))
    var squelch: Double = DemodulatorConfiguration.defaultSquelch

    @Flag(name: .long, help: "Also decode every point with minimodem (if installed) for comparison.")
    var minimodem = false

    @Flag(
        name: .long,
        help:
            "Also decode every point with no options (detection, as decode does) for comparison with the pinned profile."
    )
    var auto = false

    @Flag(name: .long, help: "Print JSON (one object per SNR) instead of a table.")
    var json = false

    struct Row {
        var snr: Double
        var ebN0: Double
        var bytesSent: Int
        var bytesDecoded: Int
        var byteErrors: Int
        var byteErrorRate: Double
        var bitErrorRate: Double
        var theoryNonCoherentBitErrorRate: Double
        var theoryCoherentBitErrorRate: Double
        var theoryNonCoherentByteErrorRate: Double
        var minimodemByteErrorRate: Double?
        var minimodemBitErrorRate: Double?
        var autoByteErrorRate: Double?
        var autoBitErrorRate: Double?

        /// The row as a JSON object, keys sorted, one per line at `indent` (the minimodem
        /// fields only when measured; a non-finite number, which JSON cannot hold, as null).
        func json(indent: String) -> String {
            func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
            var fields: [(String, String)] = [
                ("bitErrorRate", number(bitErrorRate)), ("byteErrorRate", number(byteErrorRate)),
                ("byteErrors", "\(byteErrors)"), ("bytesDecoded", "\(bytesDecoded)"), ("bytesSent", "\(bytesSent)"),
                ("ebN0", number(ebN0)), ("snr", number(snr)),
                ("theoryCoherentBitErrorRate", number(theoryCoherentBitErrorRate)),
                ("theoryNonCoherentBitErrorRate", number(theoryNonCoherentBitErrorRate)),
                ("theoryNonCoherentByteErrorRate", number(theoryNonCoherentByteErrorRate)),
            ]
            if let v = minimodemBitErrorRate { fields.append(("minimodemBitErrorRate", number(v))) }
            if let v = minimodemByteErrorRate { fields.append(("minimodemByteErrorRate", number(v))) }
            if let v = autoBitErrorRate { fields.append(("autoBitErrorRate", number(v))) }
            if let v = autoByteErrorRate { fields.append(("autoByteErrorRate", number(v))) }
            fields.sort { $0.0 < $1.0 }
            let body = fields.map { "\(indent)  \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n")
            return "\(indent){\n\(body)\n\(indent)}"
        }
    }

    func validate() throws {
        guard (1...1_000_000).contains(bytes) else { throw CLIError.usage("--bytes must be 1 to 1000000") }
        for (name, v) in [("--snr-from", snrFrom), ("--snr-to", snrTo), ("--snr-step", snrStep)] where !v.isFinite {
            throw CLIError.usage("\(name) must be a number, not \(v)")
        }
        guard snrStep > 0 else { throw CLIError.usage("--snr-step must be positive") }
        guard snrTo >= snrFrom else { throw CLIError.usage("--snr-to must not be below --snr-from") }
        guard (snrTo - snrFrom) / snrStep <= 1000 else { throw CLIError.usage("at most 1000 SNR points") }
        guard abs(snrFrom) <= 100, abs(snrTo) <= 100 else { throw CLIError.usage("SNR must be within -100...100 dB") }
        guard rate == rate.rounded() else { throw CLIError.usage("--rate must be a whole number of hertz") }
        guard squelch.isFinite else { throw CLIError.usage("--squelch must be a number") }
    }

    func run() throws {
        let profile = try modem.resolvedProfile()
        let format = try modem.frameFormat()
        let config = DemodulatorConfiguration(profile: profile, sampleRate: rate, format: format, squelch: squelch)
        do { try config.validate() } catch { throw CLIError(error) }
        let minimodemPath = minimodem ? Self.which("minimodem") : nil
        if minimodem && minimodemPath == nil { Diagnostics.error("minimodem not found; its columns are left out") }

        // The clean burst, once; amplitude leaves headroom so the 16-bit file for minimodem
        // does not clip the noise at -4 dB SNR.
        let amplitude: Float = 0.15
        var generator = SeededGenerator(seed: seed)
        let payload = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let clean: [Float]
        do {
            let modulator = try FSKModulator(profile: profile, sampleRate: rate, amplitude: amplitude)
            var encoder = BurstEncoder(modulator: modulator, format: format, preambleBits: 50, postambleBits: 7)
            let silence = Int(0.1 * rate)
            clean = encoder.burst(
                payload.map { $0 & format.valueMask }, leadingSilence: silence, trailingSilence: silence)
        } catch {
            throw CLIError(error)
        }
        let sent = payload.map { $0 & format.valueMask }
        let signalPower = Double(amplitude * amplitude) / 2
        let ebN0Offset = 10 * log10(rate / 2 / profile.baud)
        // Tone spacing over bit rate: 2 for SoftModem (orthogonal tones), 0.83 for Bell 202
        // and 0.67 for Bell 103, whose correlated tones have limits of their own.
        let modulationIndex = abs(profile.mark - profile.space) / profile.baud

        var rows: [Row] = []
        let points = Int(((snrTo - snrFrom) / snrStep + 1e-9).rounded(.down)) + 1
        if !json {
            BenchOutput.line(
                "# softmodem bench ber: \(profile), \(Int(rate)) Hz, \(format), \(bytes) bytes per point, seed \(seed), squelch \(squelch) dB"
            )
            var header = "#  SNR  Eb/N0   bytes  decoded   byte-err     BER   | theory: BER-nc   BER-coh  byte-nc"
            if minimodemPath != nil { header += " | minimodem: byte-err      BER" }
            if auto { header += " | no options: byte-err      BER" }
            BenchOutput.line(header)
        }
        for p in 0..<points {
            let snr = snrFrom + Double(p) * snrStep
            var noisy = clean
            var noise = WhiteNoiseChannel(signalPower: signalPower, snr: snr, seed: seed &* 1_000_003 &+ UInt64(p))
            noise.process(&noisy)
            let decoded = try decode(noisy, config)
            let errors = TransmissionErrors(sent: sent, decoded: decoded)
            let ebN0 = snr + ebN0Offset
            let linear = pow(10, ebN0 / 10)
            let nc = FSKErrorTheory.nonCoherentBitErrorRate(ebN0: linear, modulationIndex: modulationIndex)
            var row = Row(
                snr: snr, ebN0: ebN0, bytesSent: sent.count, bytesDecoded: decoded.count,
                byteErrors: errors.byteErrors, byteErrorRate: errors.byteErrorRate,
                bitErrorRate: errors.bitErrorRate, theoryNonCoherentBitErrorRate: nc,
                theoryCoherentBitErrorRate: FSKErrorTheory.coherentBitErrorRate(
                    ebN0: linear, modulationIndex: modulationIndex),
                theoryNonCoherentByteErrorRate: 1 - pow(1 - nc, Double(format.bitsPerFrame)))
            if let minimodemPath {
                let other = try runMinimodem(minimodemPath, noisy, profile)
                let e = TransmissionErrors(sent: sent, decoded: other)
                row.minimodemByteErrorRate = e.byteErrorRate
                row.minimodemBitErrorRate = e.bitErrorRate
            }
            if auto {
                let e = TransmissionErrors(sent: sent, decoded: try decodeWithNoOptions(noisy))
                row.autoByteErrorRate = e.byteErrorRate
                row.autoBitErrorRate = e.bitErrorRate
            }
            rows.append(row)
            if !json { BenchOutput.line(Self.format(row)) }
        }
        if json {
            BenchOutput.line(
                rows.isEmpty ? "[]" : "[\n" + rows.map { $0.json(indent: "  ") }.joined(separator: ",\n") + "\n]")
        }
    }

    private func decode(_ samples: [Float], _ config: DemodulatorConfiguration) throws -> [UInt8] {
        var demod: FSKDemodulator
        do { demod = try FSKDemodulator(config) } catch { throw CLIError(error) }
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
    /// nothing printed that detection could not prove (``DecodeSession``).
    private func decodeWithNoOptions(_ samples: [Float]) throws -> [UInt8] {
        let settings = AutoSettings()
        var session: DecodeSession<AutoReceiver>
        do {
            session = try DecodeSession(settings, sampleRate: rate, channels: 1, channel: nil, name: "bench") {
                settings.observers(.input(verbose: false), sampleRate: rate, reporter: SilentReporter())
            }
        } catch {
            throw CLIError(error)
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

    /// Writes the noisy burst to a temporary 16-bit WAV and decodes it with minimodem.
    private func runMinimodem(_ path: String, _ samples: [Float], _ profile: ModemProfile) throws -> [UInt8] {
        let file = try TemporaryWAV(samples, sampleRate: rate)
        defer { file.remove() }
        return try runCapturingOutput(path, MinimodemArguments.receive(profile, file: file.path))
    }

    private static func which(_ program: String) -> String? { findExecutable(program) }

    private static func format(_ r: Row) -> String {
        func e(_ v: Double) -> String { cFormat("%8.2e", v) }
        var line =
            cFormat("%6.1f %6.2f %7ld %8ld ", r.snr, r.ebN0, r.bytesSent, r.bytesDecoded)
            + "\(e(r.byteErrorRate)) \(e(r.bitErrorRate)) |         \(e(r.theoryNonCoherentBitErrorRate)) "
            + "\(e(r.theoryCoherentBitErrorRate)) \(e(r.theoryNonCoherentByteErrorRate))"
        if let b = r.minimodemByteErrorRate, let bit = r.minimodemBitErrorRate {
            line += " |            \(e(b)) \(e(bit))"
        }
        if let b = r.autoByteErrorRate, let bit = r.autoBitErrorRate {
            line += " |             \(e(b)) \(e(bit))"
        }
        return line
    }
}

/// `softmodem bench link`: the reliable link's throughput on a simulated full-duplex path.
struct BenchLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Reliable-link throughput against packet size and byte error rate (simulated).",
        discussion: """
            Sends --bytes pseudo-random bytes over a simulated full-duplex path at --baud (each \
            direction 0.1 s late, damaging the given share of its bytes) to far ends that accept \
            at most 20, 64, 128 or 243 payload bytes (selective, repairing: a host) and to the \
            board's sketch (8 packets of 64 bytes, selective, no repair), with packet size and parity chosen \
            by the sender as the losses go. One row per far end and error rate on stdout: \
            payload bytes a second, the share of the line's rate, packets and retransmissions, \
            the packet size the sender ended on. Simulated time: the same command prints the \
            same table.
            """)

    @Option(name: .long, help: "Bytes to send per row.") var bytes = 20_000
    @Option(name: .long, help: "Line rate (bits per second, 8N1).") var baud = 1225.0

    func validate() throws {
        guard (100...1_000_000).contains(bytes) else { throw ValidationError("--bytes must be 100 to 1000000") }
        guard baud.isFinite, (100...100_000).contains(baud) else {
            throw ValidationError("--baud must be 100 to 100000")
        }
    }

    func run() throws {
        print("far end                      damaged bytes   B/s   line rate   packets  resent  payload")
        for far in LinkThroughput.farEnds {
            for p in LinkThroughput.corruptBytes {
                let r = LinkThroughput.measure(farEnd: far, corruptByte: p, bytes: bytes, baud: baud)
                let name =
                    far.corrects
                    ? "host, up to \(far.maxPayload) bytes"
                    : "board sketch (\(far.window) x \(far.maxPayload)\(far.selective ? "" : ", go-back-N"))"
                print(
                    name + String(repeating: " ", count: max(0, 29 - name.count))
                        + pad(String(format1(100 * p)) + " %", 13) + pad(String(Int(r.bytesPerSecond.rounded())), 6)
                        + pad("\(Int((100 * r.efficiency).rounded())) %", 12) + pad("\(r.packets)", 10)
                        + pad("\(r.retransmissions)", 8) + pad("\(r.finalPayload)", 9)
                        + (r.finished ? "" : "  unfinished"))
            }
        }
    }

    private func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
    private func format1(_ x: Double) -> String { x == x.rounded() ? "\(Int(x))" : "\((x * 10).rounded() / 10)" }
}
