import Benchmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Run-wide settings shared by every benchmark.
///
/// `SOFTMODEM_BENCH_SMOKE=1` (set by `run-smoke.sh`) shrinks every input to two seconds and
/// runs each benchmark once without warm-up: enough to prove that every benchmark builds,
/// runs and meets its allocation threshold, in seconds instead of minutes.
enum Settings {
    static let smoke: Bool = {
        guard let value = getenv("SOFTMODEM_BENCH_SMOKE") else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }()

    /// Length of every generated signal.
    static let seconds: Double = smoke ? 2 : 60

    static var configuration: Benchmark.Configuration {
        Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .realTime],
        timeUnits: .milliseconds,
        warmupIterations: smoke ? 0 : 1,
        scalingFactor: .one,
        maxDuration: smoke ? .milliseconds(1) : .seconds(5),
        maxIterations: smoke ? 1 : 20,
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
