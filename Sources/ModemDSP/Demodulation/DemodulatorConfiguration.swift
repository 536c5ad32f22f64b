/// Everything an ``FSKDemodulator`` needs to know before the first sample.
public struct DemodulatorConfiguration: Sendable, Equatable {
    /// The tones and bit rate to demodulate.
    public var profile: ModemProfile
    /// Input samples per second, in Hz (8000-192000, checked by ``validate()``).
    public var sampleRate: Double
    /// The character format to deframe: data bits, parity and stop bits.
    public var format: FrameFormat
    /// Minimum estimated Eb/N0 (dB) a character needs to be reported.
    ///
    /// White noise alone measures about 0 dB, coloured recording noise up to about 8 dB, a
    /// clean signal 20-60 dB. The first character of a burst must clear this value; later
    /// characters on the burst's bit clock and at its level need 4 dB less. The default,
    /// 10 dB, rejects noise while continuous bursts still decode at -4 dB full-band SNR at
    /// 1225 baud, 44.1 kHz. Lower it to catch weaker bursts at the price of occasional false
    /// characters; raise it to silence a noisy line.
    public var squelch: Double
    /// Largest bit-rate error (fraction) the timing search covers; 0.04 means +-4 %.
    public var baudTolerance: Double

    /// The usual ``squelch``, 10 dB: noise stays out, continuous bursts still decode at -4 dB
    /// full-band SNR (1225 baud, 44.1 kHz).
    public static let defaultSquelch = 10.0

    /// SoftModem 1225 at 44.1 kHz, 8N1, the default squelch and +-4 % baud tolerance unless
    /// given. Nothing is checked until ``validate()``.
    public init(
        profile: ModemProfile = .softmodem1225, sampleRate: Double = 44_100,
        format: FrameFormat = .eightN1, squelch: Double = DemodulatorConfiguration.defaultSquelch,
        baudTolerance: Double = 0.04
    ) {
        self.profile = profile
        self.sampleRate = sampleRate
        self.format = format
        self.squelch = squelch
        self.baudTolerance = baudTolerance
    }

    /// Throws when the profile cannot be used at the sample rate or a value is not finite.
    public func validate() throws(ModemConfigurationError) {
        try profile.validate(sampleRate: sampleRate)
        guard squelch.isFinite else { throw .nonPositive("squelch", squelch) }
        guard baudTolerance.isFinite, baudTolerance >= 0, baudTolerance <= 0.1 else {
            throw .invalidFrame("baud tolerance must be between 0 and 0.1, not \(baudTolerance)")
        }
    }
}
