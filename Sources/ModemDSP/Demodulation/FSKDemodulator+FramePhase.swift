// A burst read on a wrong frame phase (characters taken to start some bits off their true
// starts) is put back on its phase by the start and stop bits of its last characters
// (``FramePhaseHistory``).

extension FSKDemodulator {
    /// Adds a decided character's line bits to the run of back-to-back characters; a
    /// burst's `first` character starts the run.
    mutating func recordFrame(_ m: UnsafeBufferPointer<BitMeasure>, first: Bool) {
        if first { framePhase.clear() }
        var pattern: UInt16 = 0
        for k in 0..<m.count where m[k].isMark { pattern |= 1 << UInt16(k) }
        framePhase.push(pattern)
    }

    /// Follows a framing error at start `a` on the clock that expected `e`: onto the frame
    /// phase the burst's characters prove, if they prove another; else, for an error close
    /// to the clock and the first in a row, a bit error on a clock still trusted. False when
    /// neither applies (the burst's clock is lost).
    mutating func followFramingError(at a: Double, expect e: Double, step: Double, lostSlots: Int) -> Bool {
        framePhase.noteStart(a, expected: e, step: step)
        if let phase = framePhase.betterPhase(frameBits: frameBits, stopBits: stopBits) {
            // The next character starts `phase` bits into this one, which was misread.
            framePhase.clear()
            let next = a + Double(phase) * step
            framePhaseMovedAt = Int64((next * Double(segmentLength)).rounded())
            mode = .following(expect: next, idleBits: 0, lostSlots: 0)
            return true
        }
        guard abs(a - e) <= FSKTuning.framingSlack && lostSlots == 0 else { return false }
        // Most likely a bit error on the clock we trust: stay on it, once. A second one in a
        // row means the clock itself is wrong.
        mode = .following(expect: a + Double(frameBits) * step, idleBits: 0, lostSlots: 1)
        return true
    }
}
