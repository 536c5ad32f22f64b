/// The modem a command talks, built once from its options: it makes receivers for a
/// sample rate and knows its ``channelPlan`` (mono, or data left and power right), the one
/// place that fact is kept; transmitters read their channel count from it.
///
/// Code that handles samples is generic over ``ModemReceiverFactory``; a command switches on
/// this value once, at the top, so the per-sample loops are specialised for each modem.
public enum Modem: Sendable, Equatable {
    /// Arduino SoftModem-style FSK: a profile, a character format and a squelch.
    case fsk(FSKSettings)
    /// UMich HiJack Manchester.
    case hijack(HiJackSettings)
    /// FSK whose profile and character format are found per burst from the signal.
    case auto(AutoSettings)

    /// A short description for messages: the profile name ("hijack", "hijack-lab11", ...).
    public var name: String {
        switch self {
        case .fsk(let s): return s.profile.name
        case .hijack(let s): return s.generation.name
        case .auto: return "auto"
        }
    }
}

/// Makes a modem's receiver for a sample rate: the FSK and HiJack settings both conform.
public protocol ModemReceiverFactory<Receiver>: Sendable {
    associatedtype Receiver: ModemReceiver
    /// The bit rate the receiver expects.
    var nominalBaud: Double { get }
    /// The bit rate every burst is sent at, for reports (the full-band SNR); nil when each
    /// burst has its own. Default: ``nominalBaud``.
    var fixedBaud: Double? { get }
    /// Silence, in bit times, that ends a burst: FSK characters follow each other closely,
    /// HiJack bytes are spread over a 100-cell byte period.
    var burstGapBits: Double { get }
    /// A receiver for `sampleRate`; throws when the modem cannot work at that rate.
    func makeReceiver(sampleRate: Double) throws(ModemConfigurationError) -> Receiver
}

extension ModemReceiverFactory {
    /// By default every burst is sent at ``nominalBaud``.
    public var fixedBaud: Double? { nominalBaud }
}

/// What fixes an FSK modem: tones and bit rate, character format, squelch.
public struct FSKSettings: ModemReceiverFactory, Equatable {
    /// The tones and bit rate to receive.
    public var profile: ModemProfile
    /// The character format the sender uses.
    public var format: FrameFormat
    /// Minimum Eb/N0 in dB for a character to count (see ``DemodulatorConfiguration/squelch``).
    public var squelch: Double

    /// Settings for `profile`, with 8N1 and the default squelch (10 dB) unless given.
    public init(
        profile: ModemProfile, format: FrameFormat = .eightN1, squelch: Double = DemodulatorConfiguration.defaultSquelch
    ) {
        self.profile = profile
        self.format = format
        self.squelch = squelch
    }

    /// The demodulator's configuration at a sample rate.
    public func configuration(sampleRate: Double) -> DemodulatorConfiguration {
        DemodulatorConfiguration(profile: profile, sampleRate: sampleRate, format: format, squelch: squelch)
    }

    /// The profile's bit rate.
    public var nominalBaud: Double { profile.baud }
    /// 20 bit times: two 10-bit characters of silence.
    public var burstGapBits: Double { 20 }

    /// An ``FSKDemodulator`` built from ``configuration(sampleRate:)``.
    public func makeReceiver(sampleRate: Double) throws(ModemConfigurationError) -> FSKDemodulator {
        try FSKDemodulator(configuration(sampleRate: sampleRate))
    }
}

/// What fixes a HiJack modem: the generation, the bit rate a receiver expects, and how a
/// transmitter frames bytes.
public struct HiJackSettings: ModemReceiverFactory, Equatable {
    /// Which HiJack protocol (line code, framing, rates, power tone).
    public var generation: HiJackGeneration
    /// The bit rate of the sender a receiver listens to (the decoder follows it within the
    /// generation's range): the board's by default.
    public var receiveBaud: Double
    /// The bit rate a transmitter sends at: the generation's phone library's by default.
    public var sendBaud: Double
    /// Bit cells from one start bit to the next when transmitting (Gen 1 and infinity).
    public var bytePeriod: Int
    /// Transmit an inverted line, for audio paths that invert it.
    public var invert: Bool

    /// Gen 1 by default; every value left nil is the generation's own.
    public init(
        generation: HiJackGeneration = .gen1, receiveBaud: Double? = nil, sendBaud: Double? = nil,
        bytePeriod: Int? = nil, invert: Bool = false
    ) {
        self.generation = generation
        self.receiveBaud = receiveBaud ?? generation.boardBaud
        self.sendBaud = sendBaud ?? generation.hostBaud
        self.bytePeriod = bytePeriod ?? generation.hostBytePeriod
        self.invert = invert
    }

    /// ``receiveBaud``: the sender's rate a receiver listens for.
    public var nominalBaud: Double { receiveBaud }
    /// Gen 1's crystal fixes its rate; infinity's builds and lab11's DCO each send their own.
    public var fixedBaud: Double? { generation == .gen1 ? receiveBaud : nil }
    /// Two 100-cell byte periods (``HiJack/defaultBytePeriod``): HiJack bytes lie far apart.
    public var burstGapBits: Double { 2 * Double(HiJack.defaultBytePeriod) }

    /// A ``HiJackDecoder`` at ``receiveBaud``, errors wrapped in ``ModemConfigurationError/hijack(_:)``.
    public func makeReceiver(sampleRate: Double) throws(ModemConfigurationError) -> HiJackDecoder {
        do {
            return try HiJackDecoder(sampleRate: sampleRate, nominalBaud: receiveBaud, generation: generation)
        } catch {
            throw .hijack(error)
        }
    }
}

extension Modem {
    /// The receiving side's factory, whichever modem this is: what all of them share (the
    /// bit rate a burst report uses, the gap that ends a burst).
    public var receiverFactory: any ModemReceiverFactory {
        switch self {
        case .fsk(let s): return s
        case .hijack(let s): return s
        case .auto(let s): return s
        }
    }
}
