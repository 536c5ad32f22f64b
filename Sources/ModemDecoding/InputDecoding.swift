public import ModemAudioIO
public import ModemDSP

/// What a whole input held that no modem could decode, found once it was read to its end.
public enum InputProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// No frames at all.
    case noAudio(input: String)
    /// Frames, but no finite sample among them (NaN or infinite only).
    case noFiniteSamples(input: String)
    /// Every sample is zero.
    case silent(input: String)

    /// One line naming the input and what it held.
    public var description: String {
        switch self {
        case .noAudio(let name): "\(name) holds no audio"
        case .noFiniteSamples(let name): "\(name) holds no finite samples (NaN or infinite)"
        case .silent(let name): "\(name) is silent: every sample is zero"
        }
    }
}

/// One input decoded to its end: its name, counts and notes, and the channel decoded.
public struct DecodedInput: Sendable {
    /// The input's name, as its notes and lines give it.
    public var name: String
    /// Characters, errors, bursts, frames and the peak sample.
    public var stats: DecodeStats
    /// What the session has to say (nothing decoded and why, bursts withheld, a mismatch).
    public var notes: [DecodeNote]
    /// The channel decoded (0-based), nil when none carried a signal.
    public var channel: Int?
    /// The input's channel count.
    public var channelCount: Int

    /// The result of a decode of `name`.
    public init(name: String, stats: DecodeStats, notes: [DecodeNote], channel: Int?, channelCount: Int) {
        self.name = name
        self.stats = stats
        self.notes = notes
        self.channel = channel
        self.channelCount = channelCount
    }

    /// The problem of the whole input, if it has one: no audio, no finite samples, or
    /// silence. Checked after the decode, since a stream's length is known only at its end.
    public var problem: InputProblem? {
        if stats.frames == 0 { return .noAudio(input: name) }
        if stats.peak == 0 && stats.nonFinite > 0 { return .noFiniteSamples(input: name) }
        if stats.peak == 0 { return .silent(input: name) }
        return nil
    }
}

extension SourceDecoding {
    /// Decodes all of `source` with `factory`'s receiver and the observers `policy` gives
    /// it: a ``DecodeSession`` at the source's rate on `channel` (nil: the channel that
    /// carries the signal), read to the end by ``run(_:through:frameLimit:readError:handle:flush:)``.
    ///
    /// `handle` gets the chosen channel's events in order and `flush` follows each read once
    /// a channel is chosen. A channel that does not exist, or a modem that cannot run at the
    /// source's rate, fails before anything is read (`sessionError`); a failed read ends it
    /// (`readError`). What the whole input held is in the result's ``DecodedInput/problem``.
    @inlinable public static func decode<Factory: ObservedReceiverFactory, Failure: Error>(
        _ source: inout some SampleSource, with factory: Factory, channel: Int?, policy: ObserverPolicy,
        reporter: any DecodeReporting = SilentReporter(), sessionError: (DecodeSessionError) -> Failure,
        readError: (AudioIOError) -> Failure, handle: (ModemEvent) throws(Failure) -> Void,
        flush: () throws(Failure) -> Void = {}
    ) throws(Failure) -> DecodedInput {
        let rate = source.sampleRate
        var session: DecodeSession<Factory.Receiver>
        do {
            // Observers are made per channel, once its receiver exists (so the rate is valid).
            session = try DecodeSession(
                factory, sampleRate: rate, channels: source.channels, channel: channel, name: source.name,
                reporter: reporter
            ) { factory.observers(policy, sampleRate: rate, reporter: reporter) }
        } catch {
            throw sessionError(error)
        }
        try run(&source, through: &session, readError: readError, handle: handle, flush: flush)
        return DecodedInput(
            name: session.name, stats: session.stats, notes: session.notes, channel: session.chosenChannel,
            channelCount: session.channelCount)
    }
}
