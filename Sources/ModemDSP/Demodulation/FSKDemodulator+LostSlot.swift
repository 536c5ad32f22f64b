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
}
