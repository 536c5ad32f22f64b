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
    ///
    /// Also true when its characters cover under ``sparseCoverage`` of the time the blocks
    /// hold tone (``BurstOpening/tonalSamples(_:window:)``): read inverted, random bytes
    /// mostly fail their stop bits and are dropped, not broken. Measured: a binary Bell 202
    /// square wave with mark on 2200 Hz at 22.05 kHz (0.56 s of tone) read 3 characters the
    /// convention's way, garbage printed with exit status 0; the other way round it reads 64.
    func framesBadly(_ detection: Detection, _ samples: [Float]) -> Bool {
        var events: [ModemEvent] = []
        guard trial(detection.profile, detection.format, samples, into: &events) != nil else { return false }
        if events.dropLast().count(where: { $0.kind != .byte }) >= Self.doubtingErrors { return true }
        let bit = sampleRate / detection.signature.baud
        let framed = Double(events.count * detection.format.bitsPerFrame) * bit
        let window = max(1, Int(bit.rounded()))
        return framed < Self.sparseCoverage * Double(BurstOpening.tonalSamples(samples, window: window))
    }

    /// The share of a burst's tone its characters must cover for the convention's reading
    /// to stand alone. Why a quarter: a sender's preamble and idle line are tone without
    /// characters (a 30-bit preamble before 3 characters is half); the reading inverted
    /// above covered 5 %. A doubted reading only waits for the burst's end.
    static let sparseCoverage = 0.25

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

    /// `signature` in the format `choose` finds for it the other way round, for a burst that
    /// `signature`'s own reading cannot frame and that opens on its space (``BurstOpening``):
    /// a fresh demodulator reading it `signature`'s way. Its convention is then doubted
    /// (``conventionDoubted(_:_:)``) and the burst's two readings decide which is printed.
    /// Nil when the burst opens otherwise or reads no better the other way round.
    ///
    /// Why: read by the convention, a sender on its tones the other way round frames only
    /// where inverted text does (8N1 text back to back reads as 8N1 inverted). Random bytes,
    /// a Bell 103 sender restarting its phase every bit and a square wave breaking into
    /// aliases frame too little to choose any format, so the burst was never opened and
    /// the diagnosis advised the convention's profile, which reads garbage.
    func againstConvention(
        _ signature: ModemSignature, _ samples: [Float], choose: (ModemSignature) -> FormatChoice?
    ) -> FormatChoice? {
        guard BurstOpening.opensOnSpace(signature, samples, sampleRate: sampleRate) else { return nil }
        switch choose(signature.swappedTones) {
        case .waitForMore?: return .waitForMore
        case .chosen(_, let format, _)?:
            // A fresh demodulator: the convention's reading is decoded beside the other
            // when the burst opens, not here.
            return swappedReading(signature.swappedTones, format, samples).map { .chosen(signature, format, $0) }
        case nil: return nil
        }
    }
}
