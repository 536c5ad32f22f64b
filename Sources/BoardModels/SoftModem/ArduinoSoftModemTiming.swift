public import ModemDSP

/// The integer timer constants the arms22 SoftModem library derives from its profile on a
/// 16 MHz Arduino (PROTOCOLS.md 1.1, 1.3, 1.5).
///
/// Every number is computed with the library's integer arithmetic: microseconds per bit
/// and per tone cycle are truncated, then divided by the timer tick (4 us at 1225 baud, 2 us
/// above, 8/16/64 us below). That truncation is why a real board sends 4902/7353 Hz at
/// 1225.5 baud, 3205/6579 Hz at 630 baud and 1603/3289 Hz at 315 baud.
///
/// A bit is `HIGH_FREQ_CNT` (or `LOW_FREQ_CNT`) whole cycles of `TCNT_HIGH_FREQ` (or
/// `TCNT_LOW_FREQ`) ticks, timed by compare-register increments, so it lasts exactly
/// cycles x ticks x tick, which need not be `BIT_PERIOD` and differs between the tones:
///
/// | baud | tick | bit (us) | mark: us/cycle -> ticks, cycles | space: us/cycle -> ticks, cycles | mark bit | space bit |
/// |---|---|---|---|---|---|---|
/// | 126 | 64 us | 7936 | 566 -> 8 (512 us, 1953 Hz), 14 | 1133 -> 17 (1088 us, 919 Hz), 7 | 7168 us | 7616 us |
/// | 315 | 16 us | 3174 | 317 -> 19 (304 us, 3289 Hz), 10 | 634 -> 39 (624 us, 1603 Hz), 5 | 3040 us | 3120 us |
/// | 630 | 8 us | 1587 | 158 -> 19 (152 us, 6579 Hz), 10 | 317 -> 39 (312 us, 3205 Hz), 5 | 1520 us | 1560 us |
/// | 1225 | 4 us | 816 | 136 -> 34 (136 us, 7353 Hz), 6 | 204 -> 51 (204 us, 4902 Hz), 4 | 816 us | 816 us |
/// | 2450 | 2 us | 408 | 136 -> 68 (136 us), 3 | 204 -> 102 (204 us), 2 | 408 us | 408 us |
///
/// So at 126 baud a mark bit is 10 % and a space bit 4 % shorter than nominal (their mean,
/// 135.3 baud, is 7 % fast), at 315 and 630 baud 4 % and 2 % (mean 2.6 % fast); at 1225 and
/// 2450 baud both are exact.
public struct ArduinoSoftModemTiming: Sendable, Hashable {
    /// Timer 2 tick in microseconds (prescaler / 16 MHz).
    public let tickMicroseconds: Int
    /// `BIT_PERIOD`: microseconds per bit, truncated (816 at 1225 baud).
    public let bitMicroseconds: Int
    /// `TCNT_BIT_PERIOD`: ticks per bit for the receiver's bit clock (204 at 1225 baud).
    public let bitTicks: Int
    /// `TCNT_HIGH_FREQ` / `TCNT_LOW_FREQ`: ticks per mark and per space cycle (34 and 51).
    public let markCycleTicks: Int
    /// `TCNT_LOW_FREQ`: ticks per space cycle (51 at 1225 baud).
    public let spaceCycleTicks: Int
    /// `HIGH_FREQ_CNT` / `LOW_FREQ_CNT`: whole tone cycles the transmitter sends per bit.
    public let markCyclesPerBit: Int
    /// `LOW_FREQ_CNT`: whole space cycles the transmitter sends per bit (4 at 1225 baud).
    public let spaceCyclesPerBit: Int
    /// `MAX_CARRIR_BITS`: the preamble cap (49 at 1225 baud).
    public let maxPreambleBits: Int

    /// Derives the constants for `profile` (its nominal baud and tones, as a sketch would
    /// `#define` them). Returns nil for a profile whose constants would be zero.
    public init?(profile: ModemProfile) {
        // A built-in SoftModem profile describes what the board sends; the board starts
        // from its header's values.
        let profile = ModemProfile.softModemHeaders[profile.name] ?? profile
        let baud = Int(profile.baud.rounded())
        let high = Int(max(profile.mark, profile.space).rounded())
        let low = Int(min(profile.mark, profile.space).rounded())
        guard baud > 0, high > 0, low > 0 else { return nil }
        let tick: Int
        switch baud {
        case ...126: tick = 64
        case ...315: tick = 16
        case ...630: tick = 8
        case ...1225: tick = 4
        default: tick = 2
        }
        tickMicroseconds = tick
        bitMicroseconds = 1_000_000 / baud
        let highMicros = 1_000_000 / high
        let lowMicros = 1_000_000 / low
        guard highMicros > 0, lowMicros > 0, bitMicroseconds > 0 else { return nil }
        bitTicks = bitMicroseconds / tick
        markCycleTicks = highMicros / tick
        spaceCycleTicks = lowMicros / tick
        markCyclesPerBit = bitMicroseconds / highMicros
        spaceCyclesPerBit = bitMicroseconds / lowMicros
        maxPreambleBits = 40_000 / bitMicroseconds
        guard markCycleTicks >= 2, spaceCycleTicks >= 2, markCyclesPerBit > 0, spaceCyclesPerBit > 0 else { return nil }
    }

    /// The mark frequency the board really sends, in Hz.
    public var actualMark: Double { 1e6 / Double(markCycleTicks * tickMicroseconds) }
    /// The space frequency the board really sends, in Hz.
    public var actualSpace: Double { 1e6 / Double(spaceCycleTicks * tickMicroseconds) }
    /// Duration of a mark bit and of a space bit in microseconds (they may differ).
    public var markBitMicroseconds: Int { markCycleTicks * markCyclesPerBit * tickMicroseconds }
    /// Duration of a space bit in microseconds.
    public var spaceBitMicroseconds: Int { spaceCycleTicks * spaceCyclesPerBit * tickMicroseconds }
    /// The board's mean bit rate for random data.
    public var actualBaud: Double { 2e6 / Double(markBitMicroseconds + spaceBitMicroseconds) }
    /// The board's real tones and mean bit rate as a profile (for decoding its output).
    public var actualProfile: ModemProfile {
        ModemProfile(name: "arduino-actual", baud: actualBaud, mark: actualMark, space: actualSpace)
    }
}
