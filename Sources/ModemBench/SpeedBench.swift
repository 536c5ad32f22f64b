public import ModemDSP
public import ModemDecoding

/// One measured task of `bench speed`: decoding a clean or a noisy signal, or encoding.
public struct SpeedRow: Sendable {
    /// Decoding a signal, or encoding traffic.
    public enum Task: String, Sendable { case decode, encode }

    /// The modem's name ("softmodem-1225", "hijack").
    public var modem: String
    /// What was timed.
    public var task: Task
    /// The noise added before decoding, nil for a clean signal (and for encoding).
    public var snr: Double?
    /// Frames each stream processed.
    public var frames: Int
    /// Bytes in each stream's signal (decoding) or encoded by each stream (encoding).
    public var bytes: Int
    /// Bytes the single-core decode found.
    public var bytesDecoded: Int?
    /// One stream on one thread.
    public var singleCore: Throughput
    /// ``SpeedBench/streams`` streams at once, each on its own thread.
    public var allCores: Throughput
    /// The same signal decoded by minimodem and by `softmodem decode`, as whole processes.
    public var minimodem: MinimodemComparison?
}

/// `bench speed`'s measurements of one modem: the decode loop of `softmodem decode` on
/// seeded traffic, clean and noisy, and the encoder making as much; each on one stream,
/// then on `streams` streams at once, `runs` times (the run of median wall time is kept).
public struct SpeedBench: Sendable {
    /// Samples a second of every signal.
    public var sampleRate: Double
    /// Frames of signal each stream decodes, and at least as many each encodes.
    public var frames: Int
    /// The seed the bytes and the noise derive from.
    public var seed: UInt64
    /// Full-band SNR of the noisy signals, in dB.
    public var snr: Double
    /// Streams run at once for ``SpeedRow/allCores`` (at least 1).
    public var streams: Int
    /// Times each measurement is repeated; the run of median wall time is kept.
    public var runs: Int
    /// minimodem's binary, to time it on the FSK signals too; nil: not timed.
    public var minimodemPath: String?
    /// This program's binary, whose decoder is timed beside minimodem.
    public var softmodemPath: String?
    /// The arguments (before the file's path) that make `softmodemPath` decode a profile.
    public var decodeArguments: @Sendable (ModemProfile) -> [String]

    /// Settings for measuring every modem alike; nil paths leave minimodem out.
    public init(
        sampleRate: Double, frames: Int, seed: UInt64, snr: Double, streams: Int, runs: Int,
        minimodemPath: String? = nil, softmodemPath: String? = nil,
        decodeArguments: @escaping @Sendable (ModemProfile) -> [String] = { _ in [] }
    ) {
        self.sampleRate = sampleRate
        self.frames = frames
        self.seed = seed
        self.snr = snr
        self.streams = streams
        self.runs = runs
        self.minimodemPath = minimodemPath
        self.softmodemPath = softmodemPath
        self.decodeArguments = decodeArguments
    }

    /// The three rows of modem number `index` of ``SpeedSignals/modems`` (decoding clean,
    /// decoding noisy, encoding); none for `.auto`, which sends nothing of its own.
    /// `progress` is called before each task with its name; `reporter` makes what each
    /// decode session reports to.
    public func measure(
        _ modem: Modem, index: Int, progress: (String) -> Void,
        reporter: @escaping @Sendable () -> any DecodeReporting
    ) throws(BenchError) -> [SpeedRow] {
        switch modem {
        case .fsk(let settings):
            let transmitter = try SpeedSignals.transmitter(settings, sampleRate: sampleRate)
            return try measure(
                modem, settings, transmitter, index: index, profile: settings.profile, progress: progress,
                reporter: reporter)
        case .hijack(let settings):
            let transmitter = try SpeedSignals.transmitter(settings, sampleRate: sampleRate)
            return try measure(
                modem, settings, transmitter, index: index, profile: nil, progress: progress, reporter: reporter)
        case .auto:
            return []
        }
    }

    private func measure<Factory: ModemReceiverFactory, Transmitter: ModemTransmitter>(
        _ modem: Modem, _ factory: Factory, _ transmitter: Transmitter, index: Int, profile: ModemProfile?,
        progress: (String) -> Void, reporter: @escaping @Sendable () -> any DecodeReporting
    ) throws(BenchError) -> [SpeedRow] {
        // A receiver the rate cannot support fails here, not silently on a thread.
        do { _ = try factory.makeReceiver(sampleRate: sampleRate) } catch {
            throw .configuration(error, context: modem.name)
        }
        let byteSeed = SpeedSignals.byteSeed(seed, index: index)
        var rows: [SpeedRow] = []
        for noise in [nil, snr] {
            progress("\(modem.name) decode \(noise == nil ? "clean" : "noisy")")
            let (samples, bytes) = SpeedSignals.signal(
                transmitter, frames: frames, snr: noise, byteSeed: byteSeed,
                noiseSeed: SpeedSignals.noiseSeed(seed, index: index))
            let rate = sampleRate
            let decode: @Sendable (Int) -> StreamTiming = { _ in
                ThroughputRunner.decode(factory, modem: modem, signal: samples, sampleRate: rate, reporter: reporter())
            }
            guard let one = ThroughputRunner.median(runs: runs, streams: 1, sampleRate: rate, decode),
                let all = ThroughputRunner.median(runs: runs, streams: streams, sampleRate: rate, decode)
            else {
                throw .decoderSetup(modem: modem.name)
            }
            var row = SpeedRow(
                modem: modem.name, task: .decode, snr: noise, frames: frames, bytes: bytes,
                bytesDecoded: one.first.bytes, singleCore: one.throughput, allCores: all.throughput)
            if let minimodemPath, let softmodemPath, let profile {
                row.minimodem = try MinimodemComparison.measure(
                    minimodemPath: minimodemPath, softmodem: softmodemPath, arguments: decodeArguments(profile),
                    profile: profile, samples: samples, sampleRate: rate)
            }
            rows.append(row)
        }
        progress("\(modem.name) encode")
        let frames = self.frames
        let encode: @Sendable (Int) -> StreamTiming = { _ in
            ThroughputRunner.encode(transmitter, frames: frames, seed: byteSeed)
        }
        if let one = ThroughputRunner.median(runs: runs, streams: 1, sampleRate: sampleRate, encode),
            let all = ThroughputRunner.median(runs: runs, streams: streams, sampleRate: sampleRate, encode)
        {
            rows.append(
                SpeedRow(
                    modem: modem.name, task: .encode, snr: nil, frames: one.first.frames, bytes: one.first.bytes,
                    bytesDecoded: nil, singleCore: one.throughput, allCores: all.throughput))
        }
        return rows
    }
}
