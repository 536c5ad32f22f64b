public import ModemDSP
public import ModemDecoding
import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Clock readings of one measured stream: wall time on the monotonic clock, CPU time of
/// the thread that ran it.
public struct StreamTiming: Sendable {
    /// Monotonic clock at the start, in nanoseconds.
    public var start: UInt64 = 0
    /// Monotonic clock at the end, in nanoseconds.
    public var end: UInt64 = 0
    /// CPU time of the stream's thread.
    public var cpuNanoseconds: UInt64 = 0
    /// Frames processed.
    public var frames = 0
    /// Bytes decoded (decoding) or encoded (encoding).
    public var bytes = 0
    /// False when the stream could not be set up (no measurement).
    public var valid = true

    /// A stream that could not be set up.
    public static let failed = StreamTiming(valid: false)

    /// A clock's reading in nanoseconds (`clock_gettime(2)`).
    static func nanoseconds(_ clock: clockid_t) -> UInt64 {
        var t = timespec()
        clock_gettime(clock, &t)  // clock_gettime(2)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Starts the clocks; `finish` stops them.
    public static func begin() -> StreamTiming {
        StreamTiming(start: nanoseconds(CLOCK_MONOTONIC), cpuNanoseconds: nanoseconds(CLOCK_THREAD_CPUTIME_ID))
    }

    /// Stops the clocks and records the work done.
    public mutating func finish(frames: Int, bytes: Int) {
        end = Self.nanoseconds(CLOCK_MONOTONIC)
        cpuNanoseconds = Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID) &- cpuNanoseconds
        self.frames = frames
        self.bytes = bytes
    }
}

/// What a set of streams run at once achieved together: every figure derives from their
/// clock readings.
public struct Throughput: Sendable {
    private let timings: [StreamTiming]
    private let sampleRate: Double

    /// Nil when there are no streams or one could not be set up.
    public init?(_ timings: [StreamTiming], sampleRate: Double) {
        guard !timings.isEmpty, timings.allSatisfy(\.valid) else { return nil }
        self.timings = timings
        self.sampleRate = sampleRate
    }

    /// How many streams ran at once.
    public var streams: Int { timings.count }
    /// From the first stream's start to the last one's end.
    public var wallSeconds: Double {
        max(1e-9, Double(timings.map(\.end).max()! &- timings.map(\.start).min()!) * 1e-9)
    }
    /// CPU time of all streams together.
    public var cpuSeconds: Double { Double(timings.reduce(0) { $0 &+ $1.cpuNanoseconds }) * 1e-9 }
    /// Seconds of audio processed per second of wall time, all streams together.
    public var realTime: Double { frames / sampleRate / wallSeconds }
    /// Million frames processed per second of wall time, all streams together.
    public var megasamplesPerSecond: Double { frames / wallSeconds / 1e6 }
    private var frames: Double { Double(timings.reduce(0) { $0 + $1.frames }) }
}

/// Runs one measured stream per thread, each on a dedicated thread (not Swift's pool, whose
/// scheduling would be measured too), and collects their clocks.
public enum ThroughputRunner {
    /// Runs `body` once per stream, each on its own thread, all at once; returns their clocks.
    public static func run(streams: Int, _ body: @escaping @Sendable (Int) -> StreamTiming) -> [StreamTiming] {
        let slots = TimingSlots(count: streams)
        DedicatedThread.runEach(count: streams, name: "softmodem-bench") { slots.base[$0] = body($0) }
        return Array(UnsafeBufferPointer(start: slots.base, count: streams))
    }

    /// Runs `streams` streams at once, `runs` times over, and keeps the run of median wall
    /// time (a busy machine slows some runs; the median ignores the outliers). Nil when a
    /// stream could not be set up; `first` is the first stream of the kept run.
    public static func median(
        runs: Int, streams: Int, sampleRate: Double,
        _ body: @escaping @Sendable (Int) -> StreamTiming
    ) -> (throughput: Throughput, first: StreamTiming)? {
        var measured: [(throughput: Throughput, first: StreamTiming)] = []
        for _ in 0..<max(1, runs) {
            let timings = run(streams: streams, body)
            guard let t = Throughput(timings, sampleRate: sampleRate) else { return nil }
            measured.append((t, timings[0]))
        }
        measured.sort { $0.throughput.wallSeconds < $1.throughput.wallSeconds }
        return measured[measured.count / 2]
    }

    /// Decodes `signal` once with a fresh decode session of `factory`, the loop
    /// `softmodem decode` runs, timing only the samples' way through it.
    /// `reporter` gets what the session reports, as `decode` would print it.
    public static func decode<Factory: ModemReceiverFactory>(
        _ factory: Factory, modem: Modem, signal: [Float],
        sampleRate: Double, reporter: any DecodeReporting
    ) -> StreamTiming {
        guard
            var session = try? DecodeSession<Factory.Receiver>(
                factory, sampleRate: sampleRate, channels: 1, channel: 0,
                name: modem.name, reporter: reporter)
        else { return .failed }
        let step = DecodeSession<Factory.Receiver>.framesPerStep
        var timing = StreamTiming.begin()
        signal.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(step, all.count - i)
                session.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]), frames: n)
                i += n
            }
        }
        session.finish()
        timing.finish(frames: signal.count, bytes: session.stats.bytes)
        return timing
    }

    /// Encodes traffic through `transmitter` until `frames` frames are written, one burst at
    /// a time into the same buffer, as `softmodem encode` works.
    public static func encode<Transmitter: ModemTransmitter>(_ transmitter: Transmitter, frames: Int, seed: UInt64)
        -> StreamTiming
    {
        var generator = TrafficGenerator(transmitter: transmitter, seed: seed)
        let capacity = generator.maxFrames(forBytes: generator.burstBytes) * transmitter.channels
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var written = 0
        var bytes = 0
        var timing = StreamTiming.begin()
        while written < frames {
            written += generator.nextBurst(count: generator.burstBytes, into: buffer)
            bytes += generator.burstBytes
        }
        timing.finish(frames: written, bytes: bytes)
        return timing
    }
}

/// One slot per stream: each thread writes only its own, and joining the threads orders
/// those writes before the reads.
private final class TimingSlots: @unchecked Sendable {
    let base: UnsafeMutablePointer<StreamTiming>
    init(count: Int) {
        base = .allocate(capacity: max(1, count))
        base.initialize(repeating: .failed, count: max(1, count))
    }
    deinit { base.deallocate() }
}
