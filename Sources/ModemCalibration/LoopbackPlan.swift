import ModemDSP

/// The measurement timeline of the loopback test, played once while capturing: silence,
/// a chirp, quiet (noise floor and hum), a long tone (clock drift), a stepped sweep
/// (frequency response), stepped levels (clipping), a level step (AGC), and a closing chirp.
///
/// Every position is a sample index in the played signal; the analysis maps it into the
/// capture with the two chirps (latency, and the rate ratio between them). The signal ends
/// with ``maxLatency`` seconds of silence so a slow path still delivers the closing chirp.
public struct LoopbackPlan: Sendable {
    /// A stretch of the timeline: where it starts and how long it is, in samples.
    public struct Segment: Sendable, Equatable {
        /// First sample of the stretch, as an index into the played signal.
        public var start: Int
        /// Length of the stretch in samples.
        public var count: Int
        var end: Int { start + count }
    }

    /// One step of the sweep or of the level ladder.
    public struct ToneStep: Sendable, Equatable {
        /// Frequency of the tone in Hz.
        public var frequency: Double
        /// Peak level of the tone in dBFS.
        public var dBFS: Double
        /// Where the tone lies in the timeline.
        public var segment: Segment
    }

    /// Sample rate of the timeline in Hz.
    public let sampleRate: Double
    /// The longest round-trip latency the timeline leaves room for, in seconds.
    public static let maxLatency = 0.6
    /// How much earlier than queued a chirp may come back, in seconds. A sound server
    /// can start a stream's new samples sooner than the silence queued before them (it
    /// rewinds), and a capture delivers in fragments, so "the moment the timeline was
    /// queued" is only known to a few tens of milliseconds. The timeline opens with more
    /// silence than this.
    public static let earlyArrival = 0.2

    /// Where to look for a chirp queued at sample `start`.
    static func chirpSearch(start: Int, sampleRate: Double) -> Range<Int> {
        max(0, start - Int(earlyArrival * sampleRate))..<(start + Int(maxLatency * sampleRate) + 1)
    }
    /// Test level of the chirps, the drift tone and the sweep: well clear of clipping on
    /// most paths, well above their noise.
    public static let testLevel = -12.0
    /// The drift tone and level ladder frequency.
    public static let referenceFrequency = 1000.0
    /// The AGC step: quiet level, loud level (dBFS).
    public static let agcLevels = (quiet: -42.0, loud: -24.0)
    /// The level ladder, quietest first (dBFS).
    public static let ladder: [Double] = [-36, -30, -24, -18, -12, -9, -6, -3, -1]

    /// The alignment chirp's samples: 300 Hz to 3.4 kHz over 100 ms at ``testLevel``.
    public let chirp: [Float]
    /// Where the first chirp lies; it gives the latency.
    public let openingChirp: Segment
    /// One second of silence, for the noise floor and hum.
    public let quiet: Segment
    /// Two seconds of the reference tone at ``testLevel``, for clock drift and the 1 kHz gain.
    public let driftTone: Segment
    /// The frequency-response steps: 50 ms tones at ``testLevel`` from 200 Hz up to 0.45 fs.
    public let sweep: [ToneStep]
    /// The HiJack power tone's frequency, measured after the sweep.
    public let powerTone: ToneStep
    /// The level ladder: a 150 ms reference tone per ``ladder`` level, quietest first.
    public let levels: [ToneStep]
    /// The first 0.7 s of the AGC step, at the quiet level.
    public let agcQuiet: Segment
    /// The next 0.7 s of the same tone, at the loud level.
    public let agcLoud: Segment
    /// Where the second chirp lies; with the first it gives the playback-to-capture rate ratio.
    public let closingChirp: Segment
    /// The whole timeline, silence tail included.
    public let signal: [Float]

    /// The sweep runs from 200 Hz to 0.45 fs in sixth-octave steps.
    public init(sampleRate: Double, powerToneFrequency: Double) {
        self.sampleRate = sampleRate
        var w = TestSignalWriter(sampleRate: sampleRate)
        chirp = Self.makeChirp(sampleRate: sampleRate)
        w.silence(seconds: 0.25)
        openingChirp = Segment(start: w.position, count: chirp.count)
        w.append(chirp)
        w.silence(seconds: 0.3)
        quiet = Self.segment(&w) { $0.silence(seconds: 1.0) }
        driftTone = Self.segment(&w) { $0.tone(frequency: Self.referenceFrequency, dBFS: Self.testLevel, seconds: 2.0) }
        w.silence(seconds: 0.1)
        var steps: [ToneStep] = []
        var f = 200.0
        while f <= 0.45 * sampleRate {
            let freq = f
            steps.append(
                ToneStep(
                    frequency: freq, dBFS: Self.testLevel,
                    segment: Self.segment(&w) { $0.tone(frequency: freq, dBFS: Self.testLevel, seconds: 0.05) }))
            f *= 1.122462048309373  // 2^(1/6)
        }
        sweep = steps
        powerTone = ToneStep(
            frequency: powerToneFrequency, dBFS: Self.testLevel,
            segment: Self.segment(&w) { $0.tone(frequency: powerToneFrequency, dBFS: Self.testLevel, seconds: 0.1) })
        w.silence(seconds: 0.1)
        levels = Self.ladder.map { dB in
            ToneStep(
                frequency: Self.referenceFrequency, dBFS: dB,
                segment: Self.segment(&w) { $0.tone(frequency: Self.referenceFrequency, dBFS: dB, seconds: 0.15) })
        }
        w.silence(seconds: 0.3)
        // One continuous tone whose level jumps: the jump is what an AGC reacts to.
        let quietCount = w.count(seconds: 0.7)
        let loudCount = w.count(seconds: 0.7)
        let start = w.position
        w.tone(frequency: Self.referenceFrequency, dBFS: 0, seconds: Double(quietCount + loudCount) / sampleRate)
        let q = Decibels.linear(Self.agcLevels.quiet)
        let l = Decibels.linear(Self.agcLevels.loud)
        var s = w.samples
        for i in start..<(start + quietCount) { s[i] *= Float(q) }
        for i in (start + quietCount)..<(start + quietCount + loudCount) { s[i] *= Float(l) }
        agcQuiet = Segment(start: start, count: quietCount)
        agcLoud = Segment(start: start + quietCount, count: loudCount)
        var tail = TestSignalWriter(sampleRate: sampleRate)
        tail.silence(seconds: 0.3)
        s.append(contentsOf: tail.samples)
        closingChirp = Segment(start: s.count, count: chirp.count)
        s.append(contentsOf: chirp)
        tail = TestSignalWriter(sampleRate: sampleRate)
        tail.silence(seconds: Self.maxLatency + 0.2)
        s.append(contentsOf: tail.samples)
        signal = s
    }

    /// The alignment chirp: 300 Hz to 3.4 kHz (inside a telephone band, so band-limited
    /// paths still return it) over 100 ms.
    static func makeChirp(sampleRate: Double) -> [Float] {
        TestSignalWriter.chirp(low: 300, high: 3400, dBFS: testLevel, seconds: 0.1, sampleRate: sampleRate)
    }

    private static func segment(_ w: inout TestSignalWriter, _ body: (inout TestSignalWriter) -> Void) -> Segment {
        let start = w.position
        body(&w)
        return Segment(start: start, count: w.position - start)
    }
}
