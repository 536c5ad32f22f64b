public import ModemDSP

/// `-v` with `--profile auto`: says what each burst was detected as, and the options that
/// would pin it, just before the burst's own `-v` line.
///
/// Lines wait for the burst to be reported because the burst report comes only from the
/// chosen channel: a stereo input's other channel, detected while the channel is being
/// chosen, says nothing.
public final class DetectionObserver: DecodeObserver {
    private let reporter: any DecodeReporting
    private var reported = 0
    private var waiting: [String] = []

    /// - Parameter reporter: takes the lines (as notes).
    public init(reporter: any DecodeReporting) { self.reporter = reporter }

    public func wantsSamples(inBurst: Bool) -> Bool { false }

    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout AutoReceiver, events: ArraySlice<ModemEvent>
    ) {
        let detections = receiver.detections
        while reported < detections.count {
            waiting.append(detections[reported].description)
            reported += 1
        }
    }

    public func burstEnded() -> String {
        for line in waiting { reporter.note(line) }
        waiting.removeAll()
        return ""
    }
}
