public import ModemAudioIO
public import ModemDSP

/// One input decoded by one modem: files, stdin and live capture all drive it the same way.
///
/// The caller hands over samples in pieces of any size (``process(_:frames:)`` for
/// interleaved floats, ``process(pcm16:)`` for mono 16-bit integers) and after each call
/// takes ``delivered``: the chosen channel's events, in order. The session demodulates in
/// steps of ``framesPerStep`` whatever the piece size, so observers (tone adapter, spectrum)
/// and the channel choice see the same steps from a file as from a stream. Channel choice
/// follows ``ChannelChoice``; memory stays bounded (at most one second of events per
/// channel is held back while choosing).
public struct DecodeSession<Receiver: ModemReceiver> {
    /// Samples per demodulation step, whatever the size of the pieces handed in.
    @inlinable public static var framesPerStep: Int { 4096 }

    /// The input's name, for messages.
    public let name: String
    /// The input's sample rate in Hz.
    public let sampleRate: Double
    /// Channels interleaved in the input.
    public let channelCount: Int
    @usableFromInline let reporter: any DecodeReporting
    /// Copies of the reporter's switches, read per event without a witness call.
    @usableFromInline let verbose: Bool
    @usableFromInline let tracing: Bool
    // One lane per candidate channel: its receiver, its observers, and what it found while
    // the channel was not yet chosen. Parallel arrays rather than an array of structs:
    // reading one lane's observers out of such an array copies the whole lane (its receiver
    // included, with a retain per buffer) at every step.
    @usableFromInline var receivers: [Receiver]
    @usableFromInline var laneObservers: [[any DecodeObserver<Receiver>]]
    @usableFromInline var pending: [[ModemEvent]]
    /// Lane index -> channel index.
    @usableFromInline let candidates: [Int]
    /// The chosen lane, once known (see ``chosenChannel`` for the channel).
    public var chosen: Int? { _chosen }
    @usableFromInline var _chosen: Int?
    @usableFromInline var decisionAt: Int64?
    /// Live input reports a burst once a gap has passed, not when the next one starts.
    @usableFromInline let reportsAtGap: Bool
    @usableFromInline var tracker: BurstTracker
    /// Added to the receivers' sample positions: the frames seen before their last reset.
    @usableFromInline var origin: Int64 = 0
    public var stats: DecodeStats { _stats }
    @usableFromInline var _stats: DecodeStats = DecodeStats()
    /// Events an observer holds back (``DecodeObserver/holdsOutput``) until its check ends.
    @usableFromInline var held: [ModemEvent] = []
    /// What the chosen channel's observers said when the input ended (for stderr, always).
    public var notes: [DecodeNote] { _notes }
    @usableFromInline var _notes: [DecodeNote] = []
    /// The chosen channel's events from the last call (emptied by each call).
    public var delivered: [ModemEvent] { _delivered }
    @usableFromInline var _delivered: [ModemEvent] = []
    @usableFromInline var events: [ModemEvent] = []
    @usableFromInline var mono: [Float]

    /// - Parameters:
    ///   - channel: the channel to decode (0-based), or nil to choose (``ChannelChoice``).
    ///   - reporter: where `-v`/`-vv` text goes (``SilentReporter`` for none).
    ///   - live: live input reports each burst once a gap has passed.
    ///   - observers: the observers of one channel's receiver, made once per candidate.
    /// - Throws: ``DecodeSessionError`` when `channel` does not exist or the modem cannot
    ///   run at `sampleRate`.
    public init<Factory: ModemReceiverFactory<Receiver>>(
        _ factory: Factory, sampleRate: Double, channels: Int, channel: Int?, name: String,
        reporter: any DecodeReporting = SilentReporter(), live: Bool = false,
        observers: () -> [any DecodeObserver<Receiver>] = { [] }
    ) throws(DecodeSessionError) {
        if let channel, channel >= channels {
            throw .noSuchChannel(input: name, channels: channels, requested: channel)
        }
        self.name = name
        self.sampleRate = sampleRate
        channelCount = channels
        self.reporter = reporter
        verbose = reporter.verbose
        tracing = reporter.trace
        candidates = channel.map { [$0] } ?? Array(0..<channels)
        receivers = []
        laneObservers = []
        do {
            for _ in candidates {
                receivers.append(try factory.makeReceiver(sampleRate: sampleRate))
                laneObservers.append(observers())
            }
        } catch {
            throw .configuration(input: name, error)
        }
        pending = Array(repeating: [], count: receivers.count)
        _chosen = receivers.count == 1 ? 0 : nil
        reportsAtGap = live
        tracker = BurstTracker(sampleRate: sampleRate, baud: factory.nominalBaud, gapBits: factory.burstGapBits)
        mono = [Float](repeating: 0, count: Self.framesPerStep)
        events.reserveCapacity(1024)
        _delivered.reserveCapacity(1024)
    }

    /// The chosen channel (0-based), once known.
    @inlinable public var chosenChannel: Int? { _chosen.map { candidates[$0] } }

    /// Decodes `frames` interleaved frames from `buffer`.
    @inlinable public mutating func process(_ buffer: UnsafeBufferPointer<Float>, frames: Int) {
        _delivered.removeAll(keepingCapacity: true)
        var first = 0
        while first < frames {
            let count = min(Self.framesPerStep, frames - first)
            scanLevels(UnsafeBufferPointer(rebasing: buffer[(first * channelCount)..<((first + count) * channelCount)]))
            for d in receivers.indices where _chosen == nil || _chosen == d {
                events.removeAll(keepingCapacity: true)
                if channelCount == 1 {
                    let part = UnsafeBufferPointer(rebasing: buffer[first..<(first + count)])
                    receivers[d].process(part, into: &events)
                    notify(d, part)
                } else {
                    let ch = candidates[d]
                    let n = channelCount
                    mono.withUnsafeMutableBufferPointer { m in
                        for i in 0..<count { m[i] = buffer[(first + i) * n + ch] }
                    }
                    mono.withUnsafeBufferPointer { all in
                        let part = UnsafeBufferPointer(rebasing: all[0..<count])
                        receivers[d].process(part, into: &events)
                        notify(d, part)
                    }
                }
                collect(d)
            }
            advance(count)
            first += count
        }
        reportAtGap()
    }

    /// Decodes mono 16-bit samples with the receiver's integer path; floats are made only
    /// for a step some observer reads.
    @inlinable public mutating func process(pcm16 samples: UnsafeBufferPointer<Int16>) {
        precondition(channelCount == 1, "16-bit input is decoded from mono sources only")
        _delivered.removeAll(keepingCapacity: true)
        var first = 0
        while first < samples.count {
            let count = min(Self.framesPerStep, samples.count - first)
            let part = UnsafeBufferPointer(rebasing: samples[first..<(first + count)])
            // Only "is anything not silent" matters for 16-bit input (it holds no NaN).
            if _stats.peak == 0 {
                var largest: Int32 = 0
                for s in part { largest = max(largest, abs(Int32(s))) }
                _stats.peak = Float(largest) * (1.0 / 32768)
            }
            events.removeAll(keepingCapacity: true)
            receivers[0].process(part, into: &events)
            // Only the burst state is read here: passing the whole receiver would copy it.
            let inBurst = receivers[0].isInBurst
            let needed = laneObservers[0].contains { $0.wantsSamples(inBurst: inBurst) }
            if needed {
                mono.withUnsafeMutableBufferPointer { convertPCM16(part, into: $0.baseAddress!) }
            }
            mono.withUnsafeBufferPointer { all in
                notify(0, UnsafeBufferPointer(rebasing: all[0..<(needed ? count : 0)]))
            }
            collect(0)
            advance(count)
            first += count
        }
        reportAtGap()
    }

    /// Ends the input: flushes the receivers, chooses a channel if none was, and reports
    /// the last burst. ``delivered`` then holds the rest of the events.
    @inlinable public mutating func finish() {
        _delivered.removeAll(keepingCapacity: true)
        if let c = _chosen {
            events.removeAll(keepingCapacity: true)
            receivers[c].flush(into: &events)
            // What the end completed (a burst detected only then) is observed too.
            notify(c, UnsafeBufferPointer(start: nil, count: 0))
            collect(c)
        } else {
            // Short input: finish every channel, then choose.
            for d in receivers.indices {
                events.removeAll(keepingCapacity: true)
                receivers[d].flush(into: &events)
                notify(d, UnsafeBufferPointer(start: nil, count: 0))
                collect(d)
            }
            choose()
        }
        if let c = _chosen {
            _notes = laneObservers[c].compactMap {
                $0.inputEnded(decodedBytes: _stats.bytes + held.count { $0.kind == .byte })
            }
            // A HiJack generation mismatch already says why nothing was decoded.
            if _notes.contains(where: { if case .hiJackMismatch = $0 { true } else { false } }) {
                _notes.removeAll { if case .nothingDecoded = $0 { true } else { false } }
            }
            deliver([])
        }
        if let last = tracker.finish(at: .max, force: true) { burstEnded(last) }
    }

    /// Starts the receivers afresh after a gap in the input (a capture overrun), so a
    /// character cut by the gap is dropped; times keep counting from the stream's start.
    ///
    /// What the receivers decoded before the gap comes out first (their flush completes a
    /// cut character with silence, which drops it): resetting them alone threw away the
    /// characters a demodulator still held for its look-ahead and burst confirmation, 8
    /// whole bytes at a burst's start. Those come out in ``delivered`` (until the next step).
    @inlinable public mutating func restartAfterGap() {
        _delivered.removeAll(keepingCapacity: true)
        for d in receivers.indices {
            events.removeAll(keepingCapacity: true)
            receivers[d].flush(into: &events)
            collect(d)
            receivers[d].reset()
        }
        origin = _stats.frames
    }

    // MARK: - Steps

    /// Only "is anything not silent" matters (an all-zero or all-NaN input is an error), so
    /// the scan stops for good at the first finite non-zero sample.
    @inlinable mutating func scanLevels(_ samples: UnsafeBufferPointer<Float>) {
        guard _stats.peak == 0 else { return }
        var peak: Float = 0
        var bad: Int64 = 0
        for x in samples {
            if x.isFinite {
                let a = abs(x)
                peak = a > peak ? a : peak
            } else {
                bad += 1
            }
        }
        _stats.peak = peak
        _stats.nonFinite += bad
    }

    @inlinable mutating func notify(_ d: Int, _ samples: UnsafeBufferPointer<Float>) {
        for o in laneObservers[d] { o.observe(samples, receiver: &receivers[d], events: events[...]) }
    }

    /// Moves the step's events of lane `d` to its pending list or, once chosen, on.
    @inlinable mutating func collect(_ d: Int) {
        if origin != 0 {
            for i in events.indices {
                events[i].startSample += origin
                events[i].endSample += origin
                events[i].decidedAt += origin
            }
        }
        if _chosen == nil { pending[d].append(contentsOf: events) } else { deliver(events) }
    }

    @inlinable mutating func advance(_ count: Int) {
        if decisionAt == nil && _stats.peak > 0 {
            decisionAt = _stats.frames + Int64(ChannelChoice.decisionSeconds * sampleRate)
        }
        _stats.frames += Int64(count)
        if _chosen == nil, let at = decisionAt, _stats.frames >= at { choose() }
    }

    @inlinable mutating func choose() {
        let c = ChannelChoice.pick(pending)
        _chosen = c
        let waiting = pending[c]
        for d in receivers.indices { pending[d] = [] }
        deliver(waiting)
        if verbose && channelCount > 1 {
            reporter.note(.channelChosen(input: name, channel: candidates[c], channels: channelCount))
        }
    }

    /// Passes the chosen channel's events on, unless an observer holds them back (for
    /// a while; at most ``maximumHeld``) or withholds them (for good: counted, not shown).
    @inlinable mutating func deliver(_ list: [ModemEvent]) {
        guard let c = _chosen else { return }
        if laneObservers[c].contains(where: { $0.withholdsOutput }) {
            _stats.withheld += (held + list).count { $0.kind == .byte }
            held.removeAll()
            return
        }
        if laneObservers[c].contains(where: { $0.holdsOutput }) && held.count + list.count <= Self.maximumHeld {
            held.append(contentsOf: list)
            return
        }
        if !held.isEmpty {
            let waiting = held
            held.removeAll()
            emit(waiting)
        }
        emit(list)
    }

    /// Events held back at most (a check decides within a second of signal).
    @inlinable public static var maximumHeld: Int { 4096 }

    @inlinable mutating func emit(_ list: [ModemEvent]) {
        for e in list {
            if tracing { reporter.trace(e, rate: sampleRate) }
            switch e.kind {
            case .byte:
                _stats.bytes += 1
                if let m = e.hijack {
                    _stats.baud = m.baud
                    _stats.inverted = m.inverted
                }
            case .framingError: _stats.framingErrors += 1
            case .parityError: _stats.parityErrors += 1
            }
            // Burst summaries are for -v only (and cost a logarithm per character).
            if verbose, let done = tracker.add(e) { burstEnded(done) }
        }
        _delivered.append(contentsOf: list)
    }

    @inlinable mutating func reportAtGap() {
        guard reportsAtGap, verbose, let c = _chosen else { return }
        if let done = tracker.finish(at: origin + receivers[c].samplesConsumed) { burstEnded(done) }
    }

    @inlinable mutating func burstEnded(_ burst: BurstTracker.Summary) {
        _stats.bursts += 1
        let observations = _chosen.map { c in laneObservers[c].compactMap { $0.burstEnded() } } ?? []
        reporter.burst(burst, rate: sampleRate, observations: observations)
    }
}
