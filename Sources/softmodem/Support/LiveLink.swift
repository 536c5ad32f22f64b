import ArgumentParser
import ModemALSA
import ModemDSP
import ModemFraming

/// Device options of `send`/`receive` in live mode. Kept apart from ``LiveAudioOptions``
/// because there `--device` has a default, and here giving it is what selects live mode.
struct LiveLinkOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("Run the link live on this ALSA device (default, pulse, hw:CARD,DEV), with acknowledgements.", valueName: "name"))
    var device: String?

    @Option(name: .long, help: ArgumentHelp("Live: device buffer in milliseconds.", valueName: "ms"))
    var latency: Double = 40

    @Option(name: .long, help: ArgumentHelp("Live: give up after this many seconds (exit 1).", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .long, help: ArgumentHelp("Live: seconds the far end needs before answering, audio path included.", valueName: "seconds"))
    var turnaround = 0.25

    func validate() throws {
        guard latency.isFinite, (4...2000).contains(latency) else { throw ValidationError("--latency must be 4 to 2000 ms") }
        if let timeout, !(timeout.isFinite && timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        guard turnaround.isFinite, (0...10).contains(turnaround) else { throw ValidationError("--turnaround must be 0 to 10 seconds") }
    }

    /// True when a live-only option was given without --device.
    var liveOnlyGiven: Bool { device == nil && (latency != 40 || timeout != nil || turnaround != 0.25) }

    /// The device options in the form the live transmitter and receiver take.
    func audioOptions(rate: Int) throws(CLIError) -> LiveAudioOptions {
        do {
            return try LiveAudioOptions.parse(["--device", device ?? "default", "--rate", String(rate), "--latency", String(latency)])
        } catch {
            throw .usage(LiveAudioOptions.message(for: error))
        }
    }
}

/// One end of the reliable link on a live sound device: the transmitter kept open (so
/// device start-up never eats a preamble) and the receiver running throughout.
///
/// The channel is half duplex and, on a loopback or with crosstalk, each end hears its own
/// bursts. That echo is harmless by construction: the sender only acts on ACK packets and
/// the receiver ignores them, so each end drops what it sent itself by the packet kind.
struct LiveLink {
    private var transmitter: LiveTransmitter<BurstEncoder>
    private var receiver: LiveDecoder<FSKDemodulator>
    private(set) var bytes: [UInt8] = []

    init(options: LiveAudioOptions, profile: ModemProfile, format: FrameFormat, preamble: Int, verbose: Bool) throws(CLIError) {
        let settings = FSKSettings(profile: profile, format: format)
        receiver = try LiveDecoder(settings, options: options, reporter: BurstReporter(verbose: verbose, trace: false, modem: .fsk(settings), factory: settings))
        transmitter = try LiveTransmitter(FSKTransmitterMaker(settings: settings, amplitudeDB: -1, preamble: preamble, postamble: 7),
                                          options: options, keepOpen: true, verbose: verbose)
        bytes.reserveCapacity(256)
    }

    func start() {
        receiver.start()
        transmitter.start()
    }

    /// Seconds until audio queued now is heard (ring, device and server buffers).
    var outputDelay: Double { transmitter.playback.queuedSeconds }

    /// Waits up to `timeout` seconds for audio and leaves the bytes decoded in ``bytes``.
    mutating func poll(timeout: Double) throws(CLIError) {
        bytes.removeAll(keepingCapacity: true)
        guard try receiver.poll(timeout: timeout) else { return }
        for e in receiver.events where e.kind == .byte { bytes.append(e.value) }
    }

    /// Queues one burst; returns at once (the playback thread plays it).
    mutating func transmit(_ burst: [UInt8]) throws(CLIError) {
        try burst.withUnsafeBufferPointer { b throws(CLIError) in try transmitter.send(b) }
        try transmitter.endBurst()
    }

    /// Lets queued audio play, then closes both directions.
    mutating func finish() throws(CLIError) {
        receiver.stop()
        try transmitter.finish()
    }

    var counters: String { "capture: \(receiver.counters); playback: \(transmitter.counters)" }
}
