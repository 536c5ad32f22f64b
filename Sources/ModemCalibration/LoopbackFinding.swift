/// One thing the loopback test found about the path, as values (levels in dBFS, gains and
/// ratios in dB, frequencies in Hz); ``LoopbackVerdict/findings`` lists them most important
/// first.
public enum LoopbackFinding: Sendable, Equatable, Codable {
    /// Nothing came back: the output is not connected to the input, or the capture is muted.
    case nothingReturned
    /// The output level to use.
    case playAt(dbfs: Double)
    /// Even the quietest rung of the level ladder clipped.
    case clipsEvenAt(dbfs: Double)
    /// The capture clips at `atDBFS` of output; levels up to `keepAtOrBelowDBFS` are clean.
    case captureClips(atDBFS: Double, keepAtOrBelowDBFS: Double)
    /// The signal arrives at `atDBFS` when played at `outputDBFS`: under -45 dBFS.
    case arrivesWeak(atDBFS: Double, outputDBFS: Double)
    /// The signal is only `aboveFloorDB` over the capture's noise floor (under 25 dB).
    case noisy(aboveFloorDB: Double, floorDBFS: Double)
    /// Mains hum: a ground loop.
    case hum(frequency: Double, levelDBFS: Double)
    /// A sample-rate converter in the path (the response falls steeply near the band's top).
    case resampler
    /// The capture runs `percent` off the playback rate: a device not at the rate asked for.
    case rateOff(percent: Double)
    /// Playback and capture clocks differ by `ppm` (over 500).
    case clockDrift(ppm: Double)
    /// Automatic gain control: a step played at `playedStepDB` came back as `capturedStepDB`.
    case agc(playedStepDB: Double, capturedStepDB: Double)
    /// The path cuts above `edgeHz` (a low-pass or voice channel).
    case lowPass(edgeHz: Double)
    /// The path cuts below `edgeHz`.
    case highPass(edgeHz: Double)
    /// A notch (noise suppression or an equaliser) near `hz`.
    case notch(hz: Double)
    /// The HiJack power tone comes back `downDB` down: too weak to power a board.
    case weakPowerTone(frequency: Double, downDB: Double)
    /// The path inverts polarity (harmless: the decoders follow it).
    case inverted
    /// A profile's byte test failed.
    case byteErrors(modem: String, errors: Int, sent: Int, received: Int)
    /// The profiles whose byte test passed.
    case working([String])
    /// No profile's tones pass this path, so no byte test ran.
    case noProfileTones

    /// True for what should be changed: any warning makes a passing test only usable.
    public var isWarning: Bool {
        switch self {
        case .nothingReturned, .playAt, .inverted, .working, .noProfileTones: false
        default: true
        }
    }
}
