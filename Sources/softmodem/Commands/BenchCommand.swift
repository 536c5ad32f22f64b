import ArgumentParser
import BoardModels
import CommandLineText
import ModemBench
import ModemDSP
import ModemDecoding
import ModemFraming
import ModemSystem

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
        let (profile, format) = (try modem.resolvedProfile(), try modem.frameFormat())
        let bench: ErrorRateBench
        do throws(BenchError) {
            bench = try ErrorRateBench(
                profile: profile, format: format, sampleRate: rate, bytes: bytes, seed: seed, squelch: squelch)
        } catch {
            throw CLIError(error)
        }
        let minimodemPath = minimodem ? FilePaths.findExecutable("minimodem") : nil
        if minimodem && minimodemPath == nil { Diagnostics.error("minimodem not found; its columns are left out") }
        var rows: [ErrorRateBench.Point] = []
        let points = Int(((snrTo - snrFrom) / snrStep + 1e-9).rounded(.down)) + 1
        if !json {
            BenchOutput.line(
                "# softmodem bench ber: \(bench.profile), \(Int(rate)) Hz, \(bench.format), \(bytes) bytes per point, seed \(seed), squelch \(squelch) dB"
            )
            BenchOutput.line(ErrorRateBench.Point.header(minimodem: minimodemPath != nil, auto: auto))
        }
        for p in 0..<points {
            let row: ErrorRateBench.Point
            do {
                row = try bench.measure(
                    snr: snrFrom + Double(p) * snrStep, index: p, minimodemPath: minimodemPath, auto: auto)
            } catch {
                throw CLIError(error)
            }
            rows.append(row)
            if !json { BenchOutput.line(row.tableRow) }
        }
        if json {
            BenchOutput.line(
                rows.isEmpty ? "[]" : "[\n" + rows.map { $0.json(indent: "  ") }.joined(separator: ",\n") + "\n]")
        }
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
        print(LinkThroughput.Row.header)
        for far in LinkThroughput.farEnds {
            for p in LinkThroughput.corruptBytes {
                print(LinkThroughput.measure(farEnd: far, corruptByte: p, bytes: bytes, baud: baud).tableRow)
            }
        }
    }
}
