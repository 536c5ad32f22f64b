// A character slot lost inside a burst is reported, not skipped in silence.

extension FSKDemodulator {
    /// Reports a character slot lost on a confirmed burst's clock as a framing error.
    ///
    /// The slot carried the burst's energy but no character could be read from it (noise,
    /// or a dropout: a sound server that skipped a period cuts a character and the clock
    /// resumes mid-way through another). Saying nothing would pass the bytes on either side
    /// off as contiguous. Before the burst is confirmed nothing is reported: a slot of noise
    /// after a false start is not a lost character.
    mutating func reportLostSlot(at e: Double, step: Double, window w: Window, _ events: inout [ModemEvent]) {
        // The characters either side are not back to back for the frame phase's judgement.
        framePhase.clear()
        guard confirmation.confirmed else { return }
        let b = Double(segmentLength)
        let signal = abs(w.markEnergy - w.spaceEnergy) * 2 * w.inverseSamples
        let noise = max(w.detrendedEnergy - signal, w.detrendedEnergy * FSKTuning.noiseFloorFraction)
        events.append(
            ModemEvent(
                kind: .framingError, value: 0,
                startSample: Int64((e * b).rounded()),
                endSample: Int64(((e + Double(frameBits) * step) * b).rounded()),
                decidedAt: Int64(rawCount * segmentLength),
                metrics: .fsk(
                    FSKCharacterMetrics(
                        signalPower: signal * w.inverseSamples, noisePower: noise * w.inverseSamples,
                        ebN0Ratio: noise > 0 ? signal * w.samples / (2 * noise) : 0, markFrequency: .nan,
                        spaceFrequency: .nan))))
    }

    /// True when the window `w` at segment `e`, where no character could be read, is one
    /// lost on the clock (bits `step` apart): it carries the burst's energy, and either
    /// holds the burst's tones (`tones`, mark plus space per sample: a start bit that noise
    /// flipped) or the whole slot carries the energy too (noise where a character was). A
    /// step where a DC offset stops with its tones does neither (``BitClock/holdsTones(_:)``).
    func isLostCharacter(at e: Double, step: Double, _ w: Window, tones: Double) -> Bool {
        clock.carriesBurst(energy: w.detrendedEnergy, samples: w.samples)
            && (clock.holdsTones(tones) || slotCarriesBurst(at: e, step: step))
    }

    /// True when the whole character slot from segment `e` (bits `step` apart) carries the
    /// burst's energy (``BitClock/carriesBurst(energy:samples:)``): noise where a character
    /// was. The search has read the slot's samples before it rejects a character there.
    func slotCarriesBurst(at e: Double, step: Double) -> Bool {
        let slot = windowSums(roundToInt(e), roundToInt(e + Double(frameBits) * step))
        return clock.carriesBurst(energy: slot.detrendedEnergy, samples: slot.samples)
    }
}
