public import ModemDSP
import ModemSpectrum

/// One streaming pass over a recording beside its receiver: the envelope for the overview,
/// a spectrogram, the survey that says what the input holds, and each burst's summary with
/// the first bursts in detail. Memory is bounded: the overview and spectrogram merge
/// neighbours as the input grows, bursts beyond the caps are counted in a summary only.
///
/// Give the samples of each step with ``process(_:)``, then the receiver's events of that
/// step with ``add(_:layout:)`` (in order), and call ``finish()`` once.
public final class RecordingAnalyzer {
    /// Bursts drawn in detail.
    public static let maxDetails = 16
    /// Characters kept per detailed burst.
    public static let maxCharactersPerBurst = 160
    /// Bursts listed in the table.
    public static let maxRows = 2_000
    /// Decoded bytes kept for the report's text.
    public static let maxText = 65_536
    /// Eye traces kept per burst.
    static let maxTraces = 400
    /// Samples of history for drawing a character decided after it ended (a power of two).
    static let ringLength = 1 << 19

    /// The input's name, carried into the analysis.
    public let name: String
    /// Sample rate of the decoded channel in Hz.
    public let sampleRate: Double
    private let format: String
    private let modem: String
    private let nominalTones: (mark: Double, space: Double)?
    private let nominalBaud: Double
    private var survey: SignalSurvey
    private var overview: Envelope
    private let spectrogram: Spectrogram
    private var tracker: BurstTracker
    private var ring: [Float]
    private var position: Int64 = 0
    private var sum = 0.0
    private var rows: [BurstRow] = []
    private var rowsOmitted = 0
    private var details: [BurstDetail] = []
    private var openDetail: Int?
    private var inBurst = false
    private var bursts = 0
    private var bytes = 0, framingErrors = 0, parityErrors = 0
    private var text: [UInt8] = []
    private var detections: [String] = []

    /// - Parameters:
    ///   - frames: the input's length when known (sets the overview's resolution).
    ///   - baud, gapBits: the modem's nominal bit rate and the silence that ends a burst.
    ///   - maxFrequency: the top of the spectrogram's band.
    public init(
        name: String, sampleRate: Double, frames: Int64?, format: String, modem: String,
        nominalTones: (mark: Double, space: Double)?, baud: Double, gapBits: Double, maxFrequency: Double
    ) {
        self.name = name
        self.sampleRate = sampleRate
        self.format = format
        self.modem = modem
        self.nominalTones = nominalTones
        nominalBaud = baud
        survey = SignalSurvey(sampleRate: sampleRate)
        let bucket = frames.map { Int($0 / 2_000) } ?? Int(sampleRate / 100)
        overview = Envelope(bucketLength: max(1, bucket), maxBuckets: 4_000)
        spectrogram = Spectrogram(sampleRate: sampleRate, maxFrequency: maxFrequency)
        tracker = BurstTracker(sampleRate: sampleRate, baud: baud, gapBits: gapBits)
        ring = [Float](repeating: 0, count: Self.ringLength)
    }

    /// The next samples of the decoded channel.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        survey.process(samples)
        overview.add(samples)
        spectrogram.process(samples)
        let mask = Self.ringLength - 1
        var p = Int(position & Int64(mask))
        var s = 0.0
        ring.withUnsafeMutableBufferPointer { r in
            for x in samples {
                let v = x.isFinite ? x : 0
                r[p] = v
                s += Double(v)
                p = (p + 1) & mask
            }
        }
        sum += s
        position += Int64(samples.count)
    }

    /// A detection made with `--profile auto` (its description).
    public func detected(_ description: String) {
        if detections.count < Self.maxRows { detections.append(description) }
    }

    /// The receiver's next event, with how its character sits on the wire.
    public func add(_ event: ModemEvent, layout: CharacterLayout) {
        if let done = tracker.add(event) { close(done) }
        if !inBurst { open(event, layout: layout) }
        switch event.kind {
        case .byte:
            bytes += 1
            if text.count < Self.maxText { text.append(event.value) }
            if !rows.isEmpty, rows[rows.count - 1].index == bursts - 1, rows[rows.count - 1].preview.count < 48 {
                rows[rows.count - 1].preview.append(event.value)
            }
        case .framingError: framingErrors += 1
        case .parityError: parityErrors += 1
        }
        if let d = openDetail { record(event, in: d) }
    }

    /// Closes the last burst and the spectrogram and returns the analysis; call once, after the
    /// last samples and events.
    public func finish() -> RecordingAnalysis {
        if let done = tracker.finish(at: .max, force: true) { close(done) }
        spectrogram.finish()
        return RecordingAnalysis(
            name: name, sampleRate: sampleRate, frames: position, format: format, modem: modem,
            nominalTones: nominalTones.map { NominalTones(mark: $0.mark, space: $0.space) }, nominalBaud: nominalBaud,
            overview: overview, overviewBuckets: overview.allBuckets, spectrogram: spectrogram.columns,
            binHz: spectrogram.binHz, columnSeconds: spectrogram.columnSeconds,
            averageSpectrum: spectrogram.averageSpectrum, diagnosis: survey.diagnosis(), peak: survey.peak,
            clippedFraction: survey.samples > 0 ? Double(survey.clippedSamples) / Double(survey.samples) : 0,
            meanPower: survey.meanPower, dcOffset: position > 0 ? sum / Double(position) : 0,
            rows: rows, rowsOmitted: rowsOmitted, details: details, bytes: bytes, framingErrors: framingErrors,
            parityErrors: parityErrors, text: text, detections: detections)
    }

    // MARK: - Bursts

    private func open(_ event: ModemEvent, layout: CharacterLayout) {
        inBurst = true
        let placeholder = BurstTracker.Summary(startSample: event.startSample, endSample: event.endSample)
        if rows.count < Self.maxRows {
            rows.append(BurstRow(index: bursts, summary: placeholder, layout: layout.label))
        } else {
            rowsOmitted += 1
        }
        if details.count < Self.maxDetails {
            let bit = sampleRate / layout.baud
            let start = max(event.startSample - Int64(2 * bit), position - Int64(Self.ringLength) + 1, 0)
            let bucket = max(1, Int(bit / 8))
            details.append(
                BurstDetail(
                    index: bursts, layout: layout, start: start, end: start,
                    waveform: Envelope(origin: start, bucketLength: bucket, maxBuckets: 4_000)))
            openDetail = details.count - 1
        }
        bursts += 1
    }

    private func close(_ summary: BurstTracker.Summary) {
        inBurst = false
        openDetail = nil
        if let last = rows.indices.last, rows[last].index == bursts - 1 { rows[last].summary = summary }
    }

    /// Adds a character's samples to the detail's waveform, its bits and eye traces.
    private func record(_ event: ModemEvent, in d: Int) {
        guard details[d].events.count < Self.maxCharactersPerBurst else {
            details[d].omitted += 1
            return
        }
        let oldest = position - Int64(Self.ringLength) + 1
        let from = max(details[d].end, oldest)
        let to = min(event.endSample, position)
        if to > from {
            withRing(from, to) { details[d].waveform.add($0) }
            details[d].end = to
        }
        details[d].events.append(event)
        let layout = details[d].layout
        let bit = sampleRate / layout.baud
        let bitsPerFrame = layout.bitCells
        guard event.startSample >= oldest, event.startSample + Int64(Double(bitsPerFrame) * bit) <= position else {
            return
        }
        switch layout.line {
        case .fsk(let mark, let space):
            let wire = layout.format.wireBits(for: event.value)
            for i in 0..<bitsPerFrame {
                let a = event.startSample + Int64((Double(i) + 0.15) * bit)
                let b = event.startSample + Int64((Double(i) + 0.85) * bit)
                guard b > a else { continue }
                withRing(a, b) { part in
                    details[d].bits.append(
                        BitEnergy(
                            start: a, end: b, mark: Self.amplitude(part, mark, sampleRate),
                            space: Self.amplitude(part, space, sampleRate),
                            isMark: wire >> UInt32(i) & 1 == 1))
                }
            }
        case .manchester:
            let length = max(4, Int(2 * bit))
            details[d].traceLength = length
            for i in 0..<layout.signalCells where details[d].traces.count < Self.maxTraces * length {
                let a = event.startSample + Int64((Double(i) - 0.5) * bit)
                guard a >= oldest, a + Int64(length) <= position else { continue }
                withRing(a, a + Int64(length)) { details[d].traces.append(contentsOf: $0) }
            }
        }
    }

    /// Calls `body` with the ring's samples `from..<to` (within the ring), contiguous.
    private func withRing(_ from: Int64, _ to: Int64, _ body: (UnsafeBufferPointer<Float>) -> Void) {
        let mask = Int64(Self.ringLength - 1)
        let count = Int(to - from)
        guard count > 0 else { return }
        let a = Int(from & mask)
        if a + count <= Self.ringLength {
            ring.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[a..<(a + count)])) }
        } else {
            let joined = Array(ring[a...]) + Array(ring[0..<(a + count - Self.ringLength)])
            joined.withUnsafeBufferPointer(body)
        }
    }
}

extension RecordingAnalyzer {
    /// The peak amplitude of the tone at `frequency` over all of `samples` (``ToneProbe``),
    /// as a report stores it: a sine of amplitude A at `frequency` reads about A.
    static func amplitude(_ samples: UnsafeBufferPointer<Float>, _ frequency: Double, _ sampleRate: Double) -> Float {
        Float(
            ToneProbe(frequency: frequency, sampleRate: sampleRate).amplitude(samples, start: 0, count: samples.count))
    }
}
