// A burst that begins while the receiver is still learning the input's noise floor.

extension AutoReceiver {
    /// While ignoring a stretch that opened before any quiet level was known (its quietest
    /// block is now the quiet level): a block 10 dB over that level, or over 1.4 times it
    /// with a profile's tone, is a burst beginning under the noise floor's cover. Opens it
    /// (once: the stretch is no longer blind) and returns true.
    ///
    /// Without this, a capture that opens with a second of noise (a sound card's floor)
    /// and a burst starting while that noise was still gathered lost the whole burst: the
    /// receiver ignored everything until two quiet blocks came.
    mutating func reopensAfterNoiseFloor(power: Double) -> Bool {
        guard blindQuiet >= 0, quiet > 0 else { return false }
        let loud = power > 10 * quiet
        let weak = !loud && power > Self.weakLevel * quiet && lastBlockIsTonal()
        guard loud || weak else { return false }
        blindQuiet = -1
        weakBurst = weak
        let b = Int64(SignalSurvey.blockLength)
        state = .gathering(start: max(0, samplesConsumed - 2 * b), loudBlocks: 1, nextTry: Self.analysisBlocks)
        return true
    }
}
