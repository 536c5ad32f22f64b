/// The three HiJack protocols a board can speak, each from its own firmware (docs/hijack.md).
///
/// All three are Manchester on the microphone line with a power tone on the headphones'
/// right channel; they differ in which transition means 1, in how bytes are framed, in bit
/// rates and in the power tone:
/// - ``gen1``: the 2011 iOS library and the TinyOS firmware stock boards carry;
/// - ``infinity``: the 2012 hijack-infinity firmware and Android library (framjack);
/// - ``lab11``: the 2013 lab11 firmware and Android library, whose packets are one bit stream.
public enum HiJackGeneration: String, CaseIterable, Sendable, Codable {
    case gen1 = "hijack"
    case infinity = "hijack-infinity"
    case lab11 = "hijack-lab11"

    /// The profile name a user types: "hijack", "hijack-infinity" or "hijack-lab11".
    public var name: String { rawValue }

    /// The board's bit rate when nothing else is known:
    /// - Gen 1: a half bit is 11 ticks of the 32.768 kHz crystal (1489.45 baud);
    /// - infinity: 14 ticks of the crystal on the MSP430F1611 build the firmware's Makefile
    ///   selects (DELTAT 13: 1170.3 baud; the FR5969 build sends 1499.25);
    /// - lab11: 209 ticks of an uncalibrated DCO / 8, measured at 15.5 samples per half bit
    ///   at 44.1 kHz (1422.6 baud); it moves to the phone's rate once it has heard the phone.
    public var boardBaud: Double {
        switch self {
        case .gen1: return HiJack.boardBaud
        case .infinity: return 32_768.0 / 28
        case .lab11: return 44_100 / 31
        }
    }

    /// Bit rates the decoder follows. Gen 1's crystal holds it near nominal; infinity's
    /// builds send 780-1500 baud; lab11's DCO is uncalibrated and retunes to the phone.
    public var decodableBaud: ClosedRange<Double> {
        switch self {
        case .gen1: return 1_000...2_000
        case .infinity: return 700...1_800
        case .lab11: return 900...1_900
        }
    }

    /// The phone's bit rate in the generation's own library: Gen 1 32 samples per bit at
    /// 44.1 kHz; infinity and lab11 35 samples per bit (two 17.5-sample half bits).
    public var hostBaud: Double {
        switch self {
        case .gen1: return HiJack.hostBaud
        case .infinity, .lab11: return 1_260
        }
    }

    /// Bit cells from one start bit to the next that the phone library sends: Gen 1 pads
    /// every byte to 100 cells; infinity leaves exactly 10 idle bits after the parity bit.
    /// lab11 has no per-byte frame (its packets are one bit stream), so this is 8.
    public var hostBytePeriod: Int {
        switch self {
        case .gen1: return HiJack.defaultBytePeriod
        case .infinity: return HiJack.frameBits + 10
        case .lab11: return 8
        }
    }

    /// The power tone the generation's library plays: Gen 1 fs/2 at 44.1 kHz (21 kHz
    /// elsewhere); infinity 21 kHz at full scale; lab11 10 kHz at a third of full scale.
    public func powerTone(sampleRate: Double) -> (frequency: Double, amplitude: Double) {
        switch self {
        case .gen1: return (HiJack.defaultPowerTone(sampleRate: sampleRate), 1)
        case .infinity: return (min(21_000, sampleRate / 2), 1)
        case .lab11: return (min(10_000, sampleRate / 2), 1.0 / 3)
        }
    }

    /// Which mid-cell transition means 1 on a line that is not inverted: rising for Gen 1
    /// and infinity (1 = low then high), falling for lab11 (1 = high then low).
    public var oneRises: Bool { self != .lab11 }

    /// True when bytes travel as packets of one bit stream (lab11) rather than as frames of
    /// start, data and parity bits.
    public var isBitStream: Bool { self == .lab11 }

    /// lab11: 1s the phone sends before a packet's start bit (the library's 20 preamble
    /// bits count the start bit), and the board's 4.
    public static let lab11HostPreambleBits = 19
    /// lab11: 1s the board sends before a packet's start bit.
    public static let lab11BoardPreambleBits = 4
}
