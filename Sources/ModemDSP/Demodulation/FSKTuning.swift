// The FSK demodulator's thresholds and gains, each with why it has its value. They were
// set on the real captures and the synthetic noise, speech and interference tests; every
// one is a ratio, so none depends on the signal's level.

/// Thresholds and gains of ``FSKDemodulator``.
enum FSKTuning {
    // MARK: Timing resolution

    /// Mixing segments per bit: finer timing (twelve) measured no better in noise and costs
    /// a third more time.
    static let segmentsPerBit = 6

    // MARK: Start-bit hunt

    /// A one-bit window triggers the search when space exceeds mark by this many times the
    /// noise per tone bin: lower triggers on noise several times a second, higher misses
    /// start bits at -4 dB full-band SNR.
    static let triggerMargin = 4.0
    /// Bits by which a first character's search range moves on when its best start is the
    /// range's last one. A sender that restarts its tones' phase every bit (Bell 103, whose
    /// tones put no whole cycles in a bit) triggers on windows across its mark bits'
    /// boundaries, where the phase jump cancels the mark correlation; such a trigger just
    /// before the start bit left the true start past the range, and the range's edge,
    /// 0.4 bit early, was decided: space bits after the start bit, their windows cancelled
    /// the same way, read as mark (printed with exit status 0). Half a bit keeps the moved
    /// range overlapping the old one.
    static let triggerRangeShift = 0.5
    /// Moves of a first character's search range before its best is decided wherever it
    /// lies: two reach a bit past the trigger, past a trigger a bit early (the clicks
    /// above); a signal whose scores rise for longer (a fade-in) is not searched on and on.
    static let maxRangeMoves = 2
    /// Detrended energy per sample below which a window is digital silence (a dithered
    /// 16-bit file's noise is far above it).
    static let silenceFloor = 1e-11

    // MARK: Squelch

    /// dB less squelch for characters on a burst's clock and at its level: the clock and the
    /// level vouch for them, and continuous bursts then decode 4 dB further into the noise.
    static let inBurstSquelchRelief = 4.0
    /// Noise never counts below this fraction of a character's energy, so a perfectly clean
    /// synthetic character has a finite Eb/N0 (60 dB).
    static let noiseFloorFraction = 1e-6

    // MARK: Following a burst

    /// A character or window is at the burst's level when its power is within these factors
    /// of the last character's (10 dB either way): fading and AGC stay inside, the tail of
    /// a different, far quieter sender does not.
    static let levelLow = 0.1
    static let levelHigh = 10.0
    /// A character this far under a confirmed burst's last one (30 dB) is refused: the
    /// tail of a tone cut off into silence framed characters 50 dB under its burst. Not
    /// ``levelLow``: a noise burst 9 dB over the signal (the live link's noise test) sets
    /// the level, and the clean characters after it are 10 dB under it; a sender's step
    /// of 20 dB inside a burst must still decode.
    static let tailLevel = 0.001
    /// A window on the clock is an idle mark bit when mark exceeds space by this many times
    /// the noise per bin.
    static let idleMargin = 1.5
    /// Straight after a character, an idle bit must have this many times more mark than
    /// space energy: a start bit tipped towards mark by noise must still get the search.
    /// After idle bits, a window under it whose second half is space is stepped by half a
    /// bit: the idle line ended mid-window.
    static let clearIdleRatio = 4.0
    /// Looking back from a burst's first character (``FSKDemodulator/lookBack(from:step:power:signalPower:)``),
    /// a bit is at the burst's level when the difference of its tones' powers is this
    /// fraction of the character's tone power or more (6 dB, the level agreement of
    /// ``BurstConfirmation``): the noise before a burst at Eb/N0 13 dB reads a twentieth.
    static let lostOpeningLevel = 0.25
    /// Space bits at the burst's level before its first character that prove characters
    /// were missed. Why 2: an idle preamble reads none; one could be the start bit of the
    /// first character found a bit late.
    static let lostOpeningSpaces = 2
    /// A window still carries the burst when its energy is above this fraction of the
    /// burst's: then a lost character keeps the clock instead of ending the burst.
    static let burstEnergyFraction = 0.3
    /// ... and holds this fraction of the burst's level at its two tones, or carries the
    /// burst's energy through its whole slot (``FSKDemodulator/isLostCharacter(at:step:_:tones:)``).
    /// Why a quarter: the step where a DC offset stops holds 0.15 of the level, then
    /// silence; a start bit that noise flipped at Eb/N0 10 dB held 0.45 (sm2450 at 48 kHz:
    /// at a half it was lost and 6 bytes with it), a cut tone 0.9.
    static let lostSlotToneFraction = 0.25
    /// Characters in a row that may be lost on the clock before the burst counts as ended.
    static let maxLostSlots = 2
    /// Segments a framing error may sit off the clock and still count as a bit error on it.
    static let framingSlack = 3.0
    /// Back-to-back characters a burst must hold before its frame phase is doubted
    /// (``FramePhaseHistory``), and the broken frames among them that doubt it. Why 8 and 2:
    /// a true phase breaks a frame only by a bit error in its start or stop bit, about one
    /// character in 60 at Eb/N0 10 dB, and another phase must then frame all 7 compared
    /// characters cleanly, which random bytes do one time in 16 000 and text with a space in
    /// it never; text read a bit off breaks at every space, about one character in five, so
    /// the burst comes back to its phase within a few words. Measured: 3 errors over 9
    /// characters left 37 of 256 noisy bursts more than 20 % wrong, against 30 with these.
    static let framePhaseCharacters = 8
    static let framePhaseErrors = 2
    /// Idle mark bits followed on the clock before the burst is over: the phone apps send 50
    /// bits of preamble, Arduino writes up to 49.
    static let maxIdleBits = 64
    /// A character within this many character times of the last one's end, at its level,
    /// resumes that burst (a lost clock, a restarted sender) and gets the in-burst squelch.
    static let resumeCharacters = 3.0

    // MARK: Alignment search

    /// On the clock, a candidate scoring at least this fraction of what the burst's level
    /// predicts is decided without the wide search (the common case, a 4x saving).
    static let gridFastPathFraction = 0.75
    /// A rate off the expected one must score this much better to be taken: many rates fit
    /// one clean character almost equally well.
    static let rateChangeMargin = 1.03
    /// On the clock, its own candidate wins when it scores at least this fraction of the
    /// wide search's best.
    static let gridPreference = 0.85
    /// After idle bits the sender may have restarted its clock anywhere (a UART writing
    /// byte by byte, minimodem --stopbits 2.5). A start whose half bit before is space at
    /// this fraction of the burst's level or more is inside a run of space bits, late: a
    /// character starting with space bits scores nearly as well up to a bit late, and the
    /// clock's own candidate was taken there. Measured: a true start reads -0.7 to -1.0
    /// (idle mark before it), the clock's candidate 0.8 bit late +0.39. Checked on every
    /// character on the clock it cost 15 to 25 % more bit errors at Eb/N0 10 dB, so only
    /// after a restart: idle bits, or a mark-leaning window where a start bit was due.
    static let lateStartFraction = 0.25
    /// After a restart the clock's candidate skips the wide search (deciding a third of a
    /// bit after the stop bit instead of 2.4 bits, live: `tx` leaves idle bits between
    /// characters) only where the line turns from mark to space by this fraction of the
    /// burst's level in the half bits either side. Half-bit windows hold one or two tone
    /// cycles, so the test is coarse: 0.4 to 0.6 decoded 40 random UART senders, 60 gapped
    /// texts and 70 noisy gapped bursts exactly as the wide search did; 0.25 let a candidate
    /// 0.2 bit early through (3 more framing errors at Eb/N0 15 dB on Bell 202), 0.1 a
    /// wrong byte with exit status 0.
    static let edgeFraction = 0.5

    // MARK: Bit decisions

    /// Energy clarity |em - es| / (em + es) above which the energy verdict stands and a
    /// disagreeing phase proves the phase reference wrong.
    static let coherentOverrideClarity = 0.6
    /// Inside a confirmed burst, every this-many-th character has its tones measured (for
    /// the burst's report); the rest skip the cost.
    static let toneMeasureInterval = 8
    /// FSK has a constant envelope: a start bit weaker than this fraction of the character's
    /// mean bit energy is an onset transient (inside a burst the clock allows `inBurstStart`).
    static let startEnergyFraction = 0.3
    static let inBurstStartEnergyFraction = 0.1
    /// No bit of a burst's first character may be weaker than this fraction of the mean.
    static let weakestBitFraction = 0.1
    /// A start found right after a space this strong (fraction of the character's mean) is
    /// a data bit of a character already under way.
    static let precedingSpaceFraction = 0.3
    /// A window before a start bit whose tones hold less than this fraction of the
    /// character's mean bit energy is silence: the character opens its burst at the onset.
    /// Why 0.03 (-15 dB): noise at the 10 dB Eb/N0 squelch fills both probes to about a
    /// fifth, and reads this quiet about once in a hundred windows; the silence before a
    /// noiseless burst reads under 0.002.
    static let precedingSilenceFraction = 0.03
    /// A start bit out of silence must hold this many times more space than mark, and at
    /// least this fraction of the character's mean bit energy. Why: a square wave stepping
    /// onto a DC offset at its onset read for one bit as space 1.6 to 3.4 times mark, at a
    /// third of the character's energy, and framed 0xFF out of its preamble (Bell 202 with
    /// mark on 2200 Hz at 22.05 and 44.1 kHz, printed with exit status 0). A real start bit
    /// clear of noise reads 10 times or more (Bell 103's leakage is a sixth) at its
    /// character's level; its bits vary by a fifth over a square wave's harmonics.
    static let onsetStartDominance = 3.0
    static let onsetStartEnergyFraction = 0.5

    // MARK: Bit clock loop

    /// Characters during which the clock pulls in fast: a sender 3 % off moves 3.6 segments
    /// a character at 1225 baud.
    static let youngClockCharacters = 4
    /// Rate and phase gains of the second-order loop while young, then settled (low jitter:
    /// at low SNR one character's best alignment wanders with the noise).
    static let youngRateGain = 0.5
    static let settledRateGain = 0.15
    static let youngPhaseGain = 0.8
    static let settledPhaseGain = 0.5

    // MARK: Tone plausibility and burst confirmation

    /// A measured tone is plausible within this fraction of nominal plus `toneSlackHz` plus
    /// `toneCoarseness` / samples per bit: room for +-3 % clock error, the iPhone app's
    /// 7300 Hz mark, and an estimate that coarsens as bits get shorter. Tighter loses real
    /// senders; looser lets a tone sweeping past the space frequency read as zeros.
    static let toneTolerance = 0.04
    static let toneSlackHz = 60.0
    static let toneCoarseness = 1000.0
    /// The tone estimate's bias from the front end's high-pass, as a multiple of
    /// baud^2 / tone (Hz). The one-bit moving mean it subtracts is not zero around a
    /// character's mark-space changes (partial cycles; Bell 202's space has 1.83 cycles per
    /// bit), and it enters a tone's correlation scaled by that tone's sum over a segment,
    /// which is nearly the whole segment for a tone with few cycles per bit. The phase
    /// error grows as the tone's cycles per bit fall, the frequency error with the bit
    /// rate: 20-30 Hz at softmodem-1225, while Bell 202's 1200 Hz mark (one cycle per bit,
    /// so the same error in every mark bit) reads 90-150 Hz high after some characters
    /// and some alignments of the bits to the segments (a third of Bell 202 bursts lost
    /// their first characters to the test without this room).
    static let toneHighPassBias = 1 / (Double.pi * Double.pi)
    /// Consecutive consistent characters that confirm a weak burst as a modem.
    static let confirmationCharacters = 3
    /// Allowed spread of the measured tones while confirming, per baud (plus
    /// `toneCoarseness` / samples per bit): at 1225 baud, 44.1 kHz, a character at -2 dB SNR
    /// reads within about 75 Hz (standard deviation) with a tail to 170 Hz over three
    /// characters, speech wanders by 150-300 Hz.
    static let confirmationSpreadPerBaud = 0.15
    /// The most tone leakage (``FSKDemodulator/toneLeakage(mark:space:samplesPerBit:sampleRate:)``)
    /// the estimates and the burst confirmation compensate for. Bell 103 (0.17) is the
    /// closest pair of a standard modem; beyond it the losing filter no longer tells a
    /// modem from interference once its leakage is taken out (a HiJack board's Manchester
    /// signal, read as FSK at tones half a bit rate apart, 0.41, passed as a modem and
    /// printed wrong bytes), so such tones are judged as if orthogonal, as before.
    static let maxCompensatedLeakage = 0.25
    /// Eb/N0 (dB) of a first character too clear for anything but a modem: it confirms its
    /// burst alone.
    static let clearEbN0 = 18.0
}
