import ArgumentParser
import CommandLineText
import ModemBench
import ModemDSP
import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem bench speed`: decode and encode throughput of every modem.
struct BenchSpeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speed",
        abstract: "Decode and encode throughput of every profile and HiJack, on one core and on all.",
        discussion: """
            For each built-in FSK profile and HiJack, generates --seconds of traffic (bursts of \
            256 random bytes with 0.1 s of rest before each, at 0.25 of full scale; HiJack as \
            the board sends it), then times the decode loop of `softmodem decode` on it, clean \
            and with white noise at --snr dB (full-band SNR against the bursts' power), and \
            times the encoder making as much traffic. Each task runs as one stream on one \
            thread, then as --threads independent streams on as many threads at once, each \
            --runs times (the run of median wall time is kept). Only the decoding or encoding \
            is timed: signals are made before the clock starts.

            Rows give seconds of audio per second of wall time (x real time) and million \
            samples per second (MS/s; frames for HiJack's stereo encoder), all streams \
            together. With --minimodem, each FSK signal is written once to a 16-bit WAV and \
            decoded by minimodem (--rx with the profile's tones and bit rate) and by \
            `softmodem decode --profile`, both as whole processes; the ratio is minimodem's \
            wall time over softmodem's. Seeds are fixed: the same command measures the same \
            work (the bytes and decoded bytes of each row are the same every run; only the \
            times vary).
            """)

    @Option(name: .long, help: ArgumentHelp("Seconds of signal per stream.", valueName: "s"))
    var seconds: Double = 60

    @OptionGroup var signal: BenchSignalOptions
    private var rate: Double { signal.rate }
    private var seed: UInt64 { signal.seed }

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("SNR of the noisy signals in dB.", valueName: "db"))
    var snr: Double = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Streams run at once for the all-cores figures (default: one per online core).", valueName: "n"))
    var threads: Int?

    @Option(
        name: .long, help: ArgumentHelp("Times each measurement is repeated; the median run is kept.", valueName: "n"))
    var runs = 5

    @Flag(name: .long, help: "Also time minimodem (if installed) on the same FSK signals.")
    var minimodem = false

    @Flag(name: .long, help: "Print one JSON document instead of a table.")
    var json = false

    func validate() throws {
        guard seconds.isFinite, (0.1...3600).contains(seconds) else {
            throw ValidationError("--seconds must be 0.1 to 3600")
        }
        guard rate == rate.rounded(), ModemProfile.sampleRateRange.contains(rate) else {
            throw ValidationError("--rate must be a whole number of hertz from 8000 to 192000")
        }
        guard seconds * rate <= Self.maximumFrames else {
            throw ValidationError(
                "at most \(Int(Self.maximumFrames) / 1_000_000) million samples per stream (--seconds x --rate): the signals are held in memory"
            )
        }
        guard snr.isFinite, abs(snr) <= 100 else { throw ValidationError("--snr must be within -100...100 dB") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1 to 256") }
        guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
    }

    /// Each signal is held in memory (4 bytes a sample) so that only decoding is timed.
    static let maximumFrames = 160_000_000.0

    private var streams: Int { threads ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    func run() throws {
        let minimodemPath = minimodem ? FilePaths.findExecutable("minimodem") : nil
        if minimodem && minimodemPath == nil { Diagnostics.error("minimodem not found; its columns are left out") }
        let frames = Int(seconds * rate)
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if !json {
            func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
            BenchOutput.line(
                "# softmodem bench speed: \(Diagnostics.number(seconds, 1)) s per stream (\(frames) samples at \(Int(rate)) Hz), "
                    + "seed \(seed), median of \(count(runs, "run")), noisy signals at \(Diagnostics.number(snr, 1)) dB SNR, "
                    + "\(count(streams, "stream")) at once on \(count(cores, "online core"))")
            for line in SpeedReport.header(minimodem: minimodemPath != nil, streams: streams) { BenchOutput.line(line) }
        }
        let bench = SpeedBench(
            sampleRate: rate, frames: frames, seed: seed, snr: snr, streams: streams, runs: runs,
            minimodemPath: minimodemPath, softmodemPath: minimodemPath == nil ? nil : try ownExecutable()
        ) { ["decode", "--profile", $0.name] }
        var rows: [SpeedRow] = []
        let progress = Progress(total: SpeedSignals.modems.count * 3, enabled: Diagnostics.stderrIsTerminal)
        for (index, modem) in SpeedSignals.modems.enumerated() {
            let measured: [SpeedRow]
            do {
                measured = try bench.measure(modem, index: index, progress: progress.show) {
                    BurstReporter(verbose: false, trace: false, modem: modem)
                }
            } catch {
                throw CLIError(error)
            }
            if !json {
                for row in measured { BenchOutput.line(row.line(minimodem: minimodemPath != nil, sampleRate: rate)) }
            }
            rows += measured
        }
        progress.clear()
        if json {
            BenchOutput.line(
                SpeedReport.json(
                    seed: seed, seconds: seconds, sampleRate: rate, snr: snr, streams: streams,
                    runs: runs, rows: rows))
        }
    }

    private func ownExecutable() throws(CLIError) -> String {
        do { return try FilePaths.ownExecutable() } catch { throw CLIError(error) }
    }
}

/// "speed: 4/27 softmodem-630 decode noisy" on stderr, rewritten in place, when it is a
/// terminal; nothing otherwise.
private final class Progress {
    private let total: Int
    private let enabled: Bool
    private var done = 0

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func show(_ what: String) {
        done += 1
        if enabled { Diagnostics.rewriteLine("bench speed: \(done)/\(total) \(what)") }
    }

    func clear() {
        if enabled { Diagnostics.rewriteLine("") }
    }
}
