// Doubting a tone pair's convention: a burst that opens on the convention's space is read
// the other way round too (see BurstOpening).

extension AutoReceiver {
    /// For a burst whose mark a tone pair's convention names but which opens on that
    /// convention's space (``BurstOpening``): a fresh demodulator reading it the other way
    /// round (``swappedChoice(_:_:)``), to read beside the convention's; nil otherwise.
    func conventionDoubted(_ detection: Detection, _ samples: [Float]) -> FSKDemodulator? {
        guard case .convention = detection.markEvidence,
            BurstOpening.opensOnSpace(detection.signature, samples, sampleRate: sampleRate)
        else { return nil }
        return swappedChoice(detection.signature, samples)
    }

    /// A fresh demodulator for `signature` with mark and space the other way round, in the
    /// format its own reading of `samples` proves or scores best (read inverted, a line can
    /// frame best in another format: inverted 8N1 text as 6N1 or 7N1); nil when none reads.
    func swappedChoice(_ signature: ModemSignature, _ samples: [Float]) -> FSKDemodulator? {
        guard
            case .chosen(_, _, let demod)? = chooseFormat(
                signature.swappedTones, samples, canWait: false, bothWays: false)
        else { return nil }
        return demod
    }
}
