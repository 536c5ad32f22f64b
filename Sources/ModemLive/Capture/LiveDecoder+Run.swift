public import ModemDSP

extension LiveDecoder {
    /// When a character was heard and when it reached the caller, in seconds.
    public struct CharacterTiming: Sendable, Equatable {
        /// The clock's time the character was handed over.
        public var now: Double
        /// From the end of its last decisive bit to ``now`` (``latency(of:at:)``).
        public var latency: Double
        /// The parts of ``latency`` (``latencyParts(of:at:)``): the receiver's look-ahead,
        /// the time the device held the audio, decoding and output.
        public var lookahead: Double, held: Double, output: Double
    }

    /// The timing of `event` (of the last poll) handed over at `now`.
    public func timing(of event: ModemEvent, at now: Double) -> CharacterTiming {
        let parts = latencyParts(of: event, at: now)
        return CharacterTiming(
            now: now, latency: latency(of: event, at: now), lookahead: parts.lookahead, held: parts.held,
            output: parts.output)
    }

    /// Why ``run(for:pollTimeout:deviceError:handle:afterRead:)`` returned.
    public enum RunEnd: Sendable, Equatable {
        /// The context's stop flag was set (SIGINT, SIGTERM, a caller).
        case stopped
        /// The duration passed.
        case duration
        /// The handler asked to stop (a count reached).
        case handler
    }

    /// Captures and decodes until the context's stop flag is set, `duration` seconds pass on
    /// the context's clock, or `handle` asks to stop: the loop of a receiver that hands bytes on as they come.
    ///
    /// After each read that brought audio (or released characters held over a gap),
    /// `handle` gets each character byte with its ``CharacterTiming``; returning false stops at
    /// once, and the rest of that read is not handed over. Then, unless stopped so,
    /// `afterRead` gets the stream time reached (a byte protocol completes a message on a
    /// pause) and may flush output. The capture is started here and stopped, with
    /// ``stop()``, at the end: the characters the end completes are then in ``events``,
    /// for the caller to take or leave. When `handle` stops the run, `afterRead` is not
    /// called for that read: the handler flushes what it wrote before it says stop. A failure stops the capture
    /// only (no end-of-stream report) and is rethrown.
    ///
    /// - Parameter deviceError: turns a capture failure into the caller's error type, so
    ///   that its own handler errors and the device's come out as one type.
    public mutating func run<Failure: Error>(
        for duration: Double?, pollTimeout: Double = 0.1, deviceError: (LiveError) -> Failure,
        handle: (ModemEvent, CharacterTiming) throws(Failure) -> Bool, afterRead: (Double) throws(Failure) -> Void
    ) throws(Failure) -> RunEnd {
        start()
        let end: RunEnd
        do throws(Failure) {
            end = try loop(
                for: duration, pollTimeout: pollTimeout, deviceError: deviceError, handle: handle, afterRead: afterRead)
        } catch {
            // A failure ends the session: the capture stops, and what the end would complete
            // is not reported over the error.
            capture.stop()
            throw error
        }
        stop()
        return end
    }

    /// The polling loop of ``run(for:pollTimeout:deviceError:handle:afterRead:)``.
    private mutating func loop<Failure: Error>(
        for duration: Double?, pollTimeout: Double, deviceError: (LiveError) -> Failure,
        handle: (ModemEvent, CharacterTiming) throws(Failure) -> Bool, afterRead: (Double) throws(Failure) -> Void
    ) throws(Failure) -> RunEnd {
        let clock = reader.context.clock
        let stopFlag = reader.context.stop
        let started = clock.now()
        while !stopFlag.isRequested {
            if let duration, clock.now() - started >= duration { return .duration }
            let got: Bool
            do { got = try poll(timeout: pollTimeout) } catch { throw deviceError(error) }
            guard got else { continue }
            let now = clock.now()
            for e in events where e.kind == .byte {
                if try !handle(e, timing(of: e, at: now)) { return .handler }
            }
            try afterRead(streamTime(at: now))
        }
        return .stopped
    }
}
