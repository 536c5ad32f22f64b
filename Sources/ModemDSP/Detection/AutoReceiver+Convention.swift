// Doubting a tone pair's convention: a burst that opens on the convention's space is read
// the other way round too (see BurstOpening).

extension AutoReceiver {
    /// Broken characters in the convention's reading of a burst's first blocks that doubt
    /// it (``framesBadly(_:_:)``). Why 2: one is what noise or a cut start does to a right
    /// reading now and then; the two readings are then scored over the whole burst, so a
    /// right reading doubted costs only its characters' wait for the burst's end.
    static let doubtingErrors = 2

    /// For a burst whose mark a tone pair's convention names but which opens on that
    /// convention's space (``BurstOpening``): a fresh demodulator reading it the other way
    /// round (``swappedChoice(_:_:)``), to read beside the convention's; nil otherwise.
    func conventionDoubted(_ detection: Detection, _ samples: [Float]) -> FSKDemodulator? {
        guard case .convention = detection.markEvidence,
            BurstOpening.opensOnSpace(detection.signature, samples, sampleRate: sampleRate)
                || framesBadly(detection, samples)
        else { return nil }
        return swappedChoice(detection.signature, samples)
    }

    /// True when the convention's reading of the burst's first blocks breaks
    /// ``doubtingErrors`` characters or more (the last, which the blocks' end may cut, not
    /// counted). Why: a sender with no preamble whose tones are the convention's the other
    /// way round opens on a start bit, the convention's mark, so the opening cannot doubt
    /// it; read inverted, its characters break their stop bits.
    func framesBadly(_ detection: Detection, _ samples: [Float]) -> Bool {
        var events: [ModemEvent] = []
        guard trial(detection.profile, detection.format, samples, into: &events) != nil else { return false }
        return events.dropLast().count { $0.kind != .byte } >= Self.doubtingErrors
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

    /// A fresh demodulator for `signature` with mark and space the other way round, in
    /// `format` (nil when it cannot run at this rate).
    func swappedReading(_ signature: ModemSignature, _ format: FrameFormat, _ samples: [Float]) -> FSKDemodulator? {
        let swapped = ModemSignature(mark: signature.space, space: signature.mark, baud: signature.baud)
        let profile = Detection(startSample: 0, signature: swapped, format: format).profile
        let configuration = DemodulatorConfiguration(profile: profile, sampleRate: sampleRate, format: format)
        return try? FSKDemodulator(configuration)
    }
}
