/// What the loopback test measured on the path from playback to capture.
///
/// Levels are dBFS: tones as peak amplitude (a full-scale sine is 0 dBFS, as `--amplitude`
/// takes it), noise as power relative to a full-scale sine. Gains are capture over playback,
/// in dB. Values that could not be measured are nil.
public struct LoopbackMeasurements: Sendable, Equatable, Codable {
    /// Sample rate of the path in Hz.
    public var sampleRate: Double
    /// True when the opening chirp came back clearly; everything below needs it.
    public var signalReturned = false
    /// How clearly the opening chirp stood out of the correlation (peak over RMS).
    public var chirpClarity = 0.0
    /// Seconds from a sample being queued for playback to its capture.
    public var latencySeconds: Double?
    /// True when the path inverts polarity.
    public var inverted = false
    /// Capture clock relative to playback clock, parts per million: positive when the
    /// capture records more samples than were played (its clock runs fast). From the drift
    /// tone's phase slope.
    public var driftPPM: Double?
    /// The same from the distance between the two chirps (coarser; a cross-check).
    public var chirpDriftPPM: Double?
    /// The noise floor of the capture in the quiet part (power, dBFS).
    public var noiseFloorDBFS = -200.0
    /// Mains hum found in the quiet part: 50 or 60 Hz and the level of the fundamental and
    /// its first harmonics together (peak dBFS).
    public var humFrequency: Double?
    /// The louder mains candidate's level (peak dBFS), set even when too weak to count as hum
    /// (``humFrequency`` nil); -200 when not measured.
    public var humDBFS = -200.0
    /// Gain of the path at 1 kHz, from the drift tone.
    public var gainDB: Double?
    /// The frequency response, relative to the gain at 1 kHz.
    public var response: [ResponsePoint] = []
    /// What reaches the capture of the HiJack power tone, relative to the gain at 1 kHz.
    public var powerTone: ResponsePoint?
    /// The level ladder.
    public var levels: [LevelStep] = []
    /// The automatic-gain-control check; nil when the level step was too close to the noise.
    public var agc: AGCResponse?
    /// Evidence of a sample-rate converter in the path; nil when not measured.
    public var resampler: ResamplerEvidence?

    /// Measurements at `sampleRate` Hz with nothing found yet: no signal back, levels at
    /// -200 dBFS, every optional value nil.
    public init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// The highest output level of the ladder that reached the capture clean (dBFS); nil
    /// when even the quietest step clipped.
    public var maxCleanOutputDBFS: Double? { levels.prefix { !$0.clipped }.last?.outputDBFS }

    /// The captured peak level at which the capture (or something before it) clipped; nil
    /// when nothing clipped.
    public var captureClipDBFS: Double? { levels.first { $0.clipped }?.capturePeakDBFS }
}

/// The gain of the path at one frequency, relative to 1 kHz.
public struct ResponsePoint: Sendable, Equatable, Codable {
    /// The swept frequency in Hz.
    public var frequency: Double
    /// Gain at that frequency minus the gain at 1 kHz, in dB.
    public var relativeDB: Double
}

/// One rung of the level ladder: what was played and what came back.
public struct LevelStep: Sendable, Equatable, Codable {
    /// The level played, in peak dBFS.
    public var outputDBFS: Double
    /// The 1 kHz tone's captured amplitude (peak dBFS).
    public var captureDBFS: Double
    /// The capture's largest sample in the step (dBFS).
    public var capturePeakDBFS: Double
    /// Harmonics 2 to 5 over the fundamental, in dB.
    public var distortionDB: Double
    /// The gain fell by more than 1.5 dB below the quiet steps' gain (and no AGC explains it).
    public var compressed = false
    /// Full scale reached, distortion above -30 dB, or compression.
    public var clipped = false
}

/// How the path's gain answered an 18 dB level step.
public struct AGCResponse: Sendable, Equatable, Codable {
    /// The step played, in dB.
    public var playedStepDB: Double
    /// The step captured once settled.
    public var capturedStepDB: Double
    /// How far the level right after the step stood above its settled value, in dB.
    public var overshootDB: Double
    /// Seconds after the step until the level stayed within 1 dB of its settled value.
    public var settleSeconds: Double
    /// True when the path levels its input: the captured step is off by more than 3 dB, or
    /// the level overshoots and settles.
    public var detected: Bool
}

/// Signs of a sample-rate converter between playback and capture.
public struct ResamplerEvidence: Sendable, Equatable, Codable {
    /// The round-trip delay's distance from a whole number of samples (0 to 0.5).
    public var fractionalDelay: Double
    /// Residual left when the played chirp, delayed and scaled, is taken from the captured
    /// one (dB below the chirp): an all-digital path leaves almost nothing.
    public var residualDB: Double
    /// The response at the highest swept frequency above 0.38 fs, relative to 1 kHz.
    public var topCutDB: Double?
    /// A response flat to 0.3 fs that falls by over 3 dB above 0.38 fs: a converter's
    /// anti-alias filter.
    public var detected: Bool
}
