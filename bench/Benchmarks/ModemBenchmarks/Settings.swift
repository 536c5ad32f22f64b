import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Run-wide settings shared by every benchmark.
///
/// `SOFTMODEM_BENCH_SMOKE=1` (set by `run-smoke.sh`) shrinks every input to two seconds, so
/// every benchmark builds, runs and meets its allocation threshold in seconds, not minutes.
///
/// The allocation gate needs more than one sample even in smoke mode. The malloc counter is
/// process-wide, and the benchmark process's main thread leaves through `dispatch_main()` ->
/// `pthread_exit()`, whose first step (glibc loading its unwinder, `libgcc_s`) makes one
/// `malloc` at a moment nothing orders against the benchmark thread. On a loaded machine it
/// can fall inside the first measured window: with a single iteration that one stray count
/// was the p90 and failed the gate. So every run does one unmeasured warm-up iteration (also
/// keeping one-time lazy initialisation out of the measurement) and ``iterations`` measured
/// ones: a one-off allocation from any thread touches at most a few of them and the p90
/// ignores it, while an allocation in the loop itself happens in every iteration and puts
/// the p90 at 1 or more.
enum Settings {
    static let smoke: Bool = {
        guard let value = getenv("SOFTMODEM_BENCH_SMOKE") else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }()

    /// Length of every generated signal.
    static let seconds: Double = smoke ? 2 : 60

    /// Measured iterations per benchmark. The p90 of 20 samples is the 18th smallest, so up
    /// to two iterations disturbed from outside the measured loop leave it at 0.
    static let iterations = 20

    static var configuration: Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal, .realTime],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            scalingFactor: .one,
            // In smoke mode the iteration count, not the time, must end the run: fewer samples
            // would let one stray allocation reach the p90 again. A smoke iteration takes
            // milliseconds, so the limit is only a backstop.
            maxDuration: smoke ? .seconds(120) : .seconds(5),
            maxIterations: iterations,
            // Allocation counts are exact, so the committed mallocCountTotal thresholds are
            // checked strictly; time is never gated (machines differ, CI is shared).
            thresholds: [.mallocCountTotal: .init(absolute: BenchmarkThresholds.Absolute.strict)])
    }
}

extension BenchmarkMetric {
    /// Seconds of audio processed per second of wall-clock time (rounded down).
    static let realTime = BenchmarkMetric.custom("x real time", polarity: .prefersLarger, useScalingFactor: false)
}

/// Times the measured region with the same clock the benchmark reports and records the
/// real-time multiple for `audioSeconds` of signal.
struct RealTimeMeter {
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant

    init() { start = clock.now }

    mutating func begin(_ benchmark: Benchmark) {
        benchmark.startMeasurement()
        start = clock.now
    }

    func end(_ benchmark: Benchmark, audioSeconds: Double) {
        let elapsed = clock.now - start
        benchmark.stopMeasurement()
        let (s, atto) = elapsed.components
        let seconds = Double(s) + Double(atto) * 1e-18
        benchmark.measurement(.realTime, seconds > 0 ? Int(audioSeconds / seconds) : 0)
    }
}
