/// What a ``LevelMeter`` measured over one burst of the profile's band (or the part of it so far).
public struct BurstLevel: Sendable, Equatable {
    /// Where the noise level behind ``snr`` was measured.
    public enum NoiseSource: Sendable, Equatable {
        /// In the tone band itself, between bursts.
        case betweenBursts
        /// Outside the tone band, during the burst.
        case outsideTheBand
    }

    /// Signal power over noise power in the whole band 0...fs/2 (the definition `decode -v`
    /// and the channel simulations use), in dB; +infinity when no noise was measurable at
    /// all (digital silence), nil when there was nowhere to measure noise.
    public var snr: Double?
    /// The burst's power in the tone band, as the peak level of a sine of that power (dBFS).
    public var levelDBFS: Double
    /// Each tone's share of the power within half a baud of it, as a sine's peak level.
    public var markDBFS: Double
    /// The space tone's share of the power within half a baud of it, as a sine's peak level (dBFS).
    public var spaceDBFS: Double
    /// The strongest frequency within half a baud of each tone.
    public var markFrequency: Double
    /// The strongest frequency within half a baud of the space tone, in Hz.
    public var spaceFrequency: Double
    /// Noise power per bin spread over 0...fs/2 (full-band noise), as a level in dBFS.
    public var noiseDBFS: Double
    /// Where the noise behind ``snr`` and ``noiseDBFS`` was measured; nil when nowhere (``snr``
    /// is then nil too).
    public var noiseSource: NoiseSource?
    /// Both tones carry a share of the burst (each at least a tenth, together at least half
    /// of all the signal's power, or the mark alone while the burst is under way and has
    /// sent only its preamble so far): the sender uses the profile's tones.
    public var tonesPresent: Bool
    /// The strongest frequency of the burst, in Hz (for a burst of other tones).
    public var strongestFrequency: Double
    /// Seconds from the start of the burst's first loud frame to the end of its last (whole frames).
    public var durationSeconds: Double
    /// The burst is still under way.
    public var ongoing: Bool
}

/// What the meter advises, most urgent first.
public enum LevelVerdict: Sendable, Equatable {
    /// Samples at or near full scale within the last two seconds.
    case clipping
    /// Nothing above -60 dBFS and no burst seen yet.
    case noSignal
    /// A burst of the profile's tones below -40 dBFS.
    case weak
    /// Signal, but not in the profile's tones; the strongest frequency when one stands out.
    case noProfileTones(strongest: Double?)
    /// A burst with an SNR under 3 dB: decoding will make errors.
    case noisy
    /// A burst of the profile's tones at a good level and SNR (now or within two seconds).
    case ok
    /// Between bursts, the last one good (a last burst with a problem keeps its advice).
    case idle
}

/// One update of a ``LevelMeter``.
public struct LevelReading: Sendable, Equatable {
    /// Peak and RMS of the samples since the previous reading, dBFS (a full-scale sine reads
    /// 0 dBFS peak and -3 dBFS RMS); -infinity for digital silence.
    public var peakDBFS: Double = -.infinity
    /// RMS level of the samples since the previous reading, dBFS; -infinity for digital silence.
    public var rmsDBFS: Double = -.infinity
    /// The highest peak of the last two seconds (held, then dropping to the current peak).
    public var peakHoldDBFS: Double = -.infinity
    /// Samples at or above the clipping threshold since the previous reading.
    public var clippedSamples = 0
    /// The burst under way, else the latest one.
    public var burst: BurstLevel?
    /// Seconds since ``burst`` ended (0 while it is under way).
    public var burstAge = 0.0
    /// The strongest frequency since the previous reading when it stands 20 dB above the
    /// noise, else nil.
    public var strongestTone: Double?
    /// The advice this reading gives: the most urgent ``LevelVerdict`` that applies.
    public var verdict = LevelVerdict.noSignal
    /// Seconds of input so far.
    public var seconds = 0.0

    /// A reading of nothing yet: levels at -infinity, no burst, ``LevelVerdict/noSignal``.
    public init() {}
}
