import ModemDSP

/// `-v` with `--profile auto`: says what each burst was detected as, and the options that
/// would pin it, as the receiver finds it.
final class DetectionObserver: DecodeObserver {
    private var reported = 0

    func wantsSamples(inBurst: Bool) -> Bool { false }

    func observe(_ samples: UnsafeBufferPointer<Float>, receiver: inout AutoReceiver, events: ArraySlice<ModemEvent>) {
        let detections = receiver.detections
        while reported < detections.count {
            Diagnostics.info(detections[reported].description)
            reported += 1
        }
    }

    func burstEnded() -> String { "" }
}
