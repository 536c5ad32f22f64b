import CSoundServer

/// The rates a PipeWire graph runs its default sink and source at, so that streams through
/// it can be opened at that rate and skip its resampler.
///
/// Asked over the PulseAudio protocol, which pipewire-pulse speaks; libpulse is loaded at run
/// time, so without it (or without a server) there is no answer rather than an error. A
/// server stopped mid-answer is given ``timeoutSeconds``. PulseAudio itself gives no answer
/// here: it switches an idle sink to a new stream's rate (its default or alternate rate,
/// 44.1 and 48 kHz on Debian), so what a sink runs at before the stream opens depends on the
/// stream before, and following it made the chosen rate depend on history (seen in the
/// tests: a sink left at 48 kHz by an earlier stream).
public struct SoundServerRates: Sendable, Equatable {
    /// The default sink's rate (what playback goes to), nil when there is none.
    public var sink: Int?
    /// The default source's rate (what capture comes from: a monitor has its sink's), nil
    /// when there is none.
    public var source: Int?

    /// The default sink's and source's rates in Hz; nil where there is none.
    public init(sink: Int?, source: Int?) {
        self.sink = sink
        self.source = source
    }

    /// How long the question may take: a local server answers in milliseconds; one that is
    /// stopped never does, and opening the device then reports it (``ALSAOpenLimit``).
    /// A stopped server thus costs one second more before that report.
    public static let timeoutSeconds = 1.0

    /// The server's rate for `direction`, when it is one the modems run at (32-192 kHz: the
    /// fastest profile's mark tone needs 32 kHz); nil for a slower or stranger server, which
    /// is better left to resample.
    public func rate(for direction: ALSADirection) -> Int? {
        guard let rate = direction == .capture ? source : sink, Self.usableRates.contains(rate) else { return nil }
        return rate
    }

    /// Rates worth opening a stream at to skip the server's resampler.
    public static let usableRates = 32_000...192_000

    /// True for the ALSA devices that reach the desktop's sound server: `default` (where a
    /// server runs, its plugin is the default), `pulse` and `pipewire`.
    public static func reachesServer(device: String) -> Bool {
        device == "default" || device == "pulse" || device == "pipewire"
    }

    /// Asks the server. Nil when it is not PipeWire, libpulse is absent, no server answers, ``timeoutSeconds``
    /// passes (a stopped server), or `isCancelled` returns nonzero (polled every 50 ms, so
    /// Ctrl-C ends the wait). Calls `csound_server_rates_query` (pa_context_get_server_info,
    /// then pa_context_get_sink_info_by_name and pa_context_get_source_info_by_name).
    public static func query(isCancelled: (@convention(c) () -> Int32)? = nil) -> SoundServerRates? {
        var rates = csound_server_rates()
        guard csound_server_rates_query(&rates, Int32(timeoutSeconds * 1000), isCancelled) == 0, rates.pipewire != 0
        else { return nil }
        func known(_ rate: UInt32) -> Int? { rate > 0 ? Int(rate) : nil }
        let found = SoundServerRates(sink: known(rates.sink), source: known(rates.source))
        return found.sink == nil && found.source == nil ? nil : found
    }
}
