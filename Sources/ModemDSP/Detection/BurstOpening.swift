/// Which tone a burst opens on, as a check of the mark a tone pair's convention names.
///
/// Why: a convention (``ToneConvention``) is what the modem it names sends, not what every
/// sender on those tones does (`minimodem --tx -M 2200 -S 1200 1200` sends Bell 202's tones
/// with mark on 2200 Hz). Read by the convention such a burst is inverted text, and framing
/// alone passes much of it (8N1 text back to back reads as valid 8N1 inverted and shifted by a
/// bit), so it came out as garbage with framing errors here and there. Every asynchronous
/// sender idles on mark before its first start bit, so a burst that opens on the convention's
/// space for two bits or more is either such a sender after its preamble, or a
/// sender with no preamble whose first character begins with a data bit of 0 after its start
/// bit; the burst as a whole then decides (``BurstReadings``), the convention breaking a tie.
///
/// Edge cases: a DC offset is taken out first; a burst that opens under noise or at a level the scan cannot tell (neither tone
/// ``dominance`` times the other) opens on nothing, and the convention stands alone; so does
/// one whose first samples are not its opening (a burst already under way when the input
/// began).
enum BurstOpening {
    /// How many times the other tone's energy one tone must have to count as the line's.
    /// Why 3: one bit of Bell 103's 1070 Hz leaks about a sixth of its energy into a 1270 Hz
    /// probe (tones 0.67 bit rates apart); 3 leaves room for noise at the 10 dB Eb/N0 squelch.
    static let dominance = 3.0
    /// The share of the burst's peak window energy at which it begins. Why a quarter: a
    /// window half over the onset holds that much; the first window inside a burst more.
    static let onsetShare = 0.25
    /// Bits of the burst scanned for its level and onset, and at least ``scannedSamples``:
    /// the burst's detection may begin its samples a block or more before the tone starts
    /// (2,048 samples are 51 bits at 1200 baud and 48 kHz, 228 at 2450 baud and 22.05 kHz).
    static let scannedBits = 96
    /// Samples scanned at the least: three of detection's blocks.
    static let scannedSamples = 3 * SignalSurvey.blockLength

    /// True when the burst in `samples` (from its detection's first sample) opens on
    /// `signature`'s space tone: the two windows of a bit after the one it begins in, half a
    /// bit apart (from half a bit to two bits into the burst), each hold ``dominance`` times
    /// more space than mark.
    static func opensOnSpace(_ signature: ModemSignature, _ samples: [Float], sampleRate: Double) -> Bool {
        let bit = sampleRate / signature.baud
        guard bit >= 4, signature.mark > 0, signature.space > 0 else { return false }
        let window = Int(bit.rounded())
        let step = max(1, Int((bit / 2).rounded()))
        let mark = ToneProbe(frequency: signature.mark, sampleRate: sampleRate)
        let space = ToneProbe(frequency: signature.space, sampleRate: sampleRate)
        // A DC offset leaks into a probe whose window holds no whole number of its cycles:
        // the scanned stretch is measured about its own mean (a tone's is near zero).
        let scanned = samples.prefix(max(Self.scannedBits * window, Self.scannedSamples) + window)
        let mean = scanned.reduce(0.0) { $0 + Double($1.isFinite ? $1 : 0) } / Double(max(1, scanned.count))
        let centred = scanned.map { Float(Double($0.isFinite ? $0 : 0) - mean) }
        var energies: [(mark: Double, space: Double)] = []
        centred.withUnsafeBufferPointer { buffer in
            var start = 0
            while start + window <= buffer.count {
                let m = mark.measure(buffer, start: start, count: window)
                let s = space.measure(buffer, start: start, count: window)
                energies.append((m.re * m.re + m.im * m.im, s.re * s.re + s.im * s.im))
                start += step
            }
        }
        let peak = energies.map { $0.mark + $0.space }.max() ?? 0
        guard peak > 0, let onset = energies.firstIndex(where: { $0.mark + $0.space >= Self.onsetShare * peak }),
            onset + 2 < energies.count
        else { return false }
        // The window the onset is in holds silence too, and a cut tone spreads into the other
        // tone's probe: the two after it are the opening's.
        return energies[(onset + 1)...(onset + 2)].allSatisfy { $0.space > Self.dominance * $0.mark }
    }

    /// Samples of `samples` that hold tone: windows of `window` samples with a tenth of the
    /// loudest one's energy or more (the rest is silence or noise around a burst).
    static func tonalSamples(_ samples: [Float], window: Int) -> Int {
        guard window > 0, samples.count >= window else { return 0 }
        var energies: [Double] = []
        energies.reserveCapacity(samples.count / window)
        var start = 0
        while start + window <= samples.count {
            var e = 0.0
            for x in samples[start..<(start + window)] where x.isFinite { e += Double(x) * Double(x) }
            energies.append(e)
            start += window
        }
        let loud = (energies.max() ?? 0) * Self.tonalShare
        return energies.count { $0 > 0 && $0 >= loud } * window
    }

    /// The share of the loudest window's energy from which a window holds tone (10 dB).
    static let tonalShare = 0.1
}
