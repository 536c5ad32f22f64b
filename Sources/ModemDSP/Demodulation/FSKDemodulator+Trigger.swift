// The start-bit hunt's test of one window: does a character start here?

extension FSKDemodulator {
    /// True when the one-bit window ending at `end` looks like the start of a start bit.
    @inline(__always)
    func triggers(at end: Int) -> Bool {
        // Screen: no trigger without more space than mark energy, and most windows in
        // silence or noise fail here, before the rest of the window's sums are read. (The
        // test below scales both energies by the same positive factor, which cannot turn
        // space <= mark into space > mark: the verdicts are the same.)
        do {
            let r = storage.ring
            let a = 6 * ((end - window) & ringMask)
            let b = 6 * (end & ringMask)
            let mr = r[b] - r[a]
            let mi = r[b + 1] - r[a + 1]
            let sr = r[b + 2] - r[a + 2]
            let si = r[b + 3] - r[a + 3]
            guard sr * sr + si * si > mr * mr + mi * mi else { return false }
        }
        let w = windowSums(end - window, end)
        let g = 2 * w.inverseSamples
        let em = w.markEnergy * g
        let es = w.spaceEnergy * g
        guard es > em else { return false }
        let total = w.detrendedEnergy
        guard total > w.samples * FSKTuning.silenceFloor else { return false }  // digital silence
        let noisePerBin = max(total - es, 0) * g
        return es - em > FSKTuning.triggerMargin * noisePerBin
    }
}
