public import ModemDSP

/// What the automatic receiver detected: with `-v`, each burst's detection, just before the
/// burst's own report; always, at the end, how many bursts were not printed because nothing
/// proved which tone is mark (``Detection/MarkEvidence``).
///
/// Lines wait for the burst to be reported because the burst report comes only from the
/// chosen channel: a stereo input's other channel, detected while the channel is being
/// chosen, says nothing. They are made when the burst ends, since a burst read both ways
/// round learns its mark only then.
public final class DetectionObserver: DecodeObserver {
    private let reporter: any DecodeReporting
    private var reported = 0
    private var waiting: [Detection] = []
    private var unproven: (bursts: Int, first: Detection?) = (0, nil)

    /// - Parameter reporter: takes the `-v` notes.
    public init(reporter: any DecodeReporting) { self.reporter = reporter }

    /// Never needs samples: detections are read from the receiver.
    public func wantsSamples(inBurst: Bool) -> Bool { false }

    /// Queues each newly settled detection for the burst's report and counts those whose mark
    /// is unproven.
    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout AutoReceiver, events: ArraySlice<ModemEvent>
    ) {
        let detections = receiver.detections
        // Settled detections only: the last one may still be read both ways round.
        while reported < detections.count, detections[reported].markEvidence != .undecided {
            let d = detections[reported]
            if d.markEvidence == .unproven {
                unproven.bursts += 1
                if unproven.first == nil { unproven.first = d }
            }
            waiting.append(d)
            reported += 1
        }
    }

    /// Sends the queued detections as notes when verbose, then clears them; adds nothing to the
    /// burst line.
    public func burstEnded() -> BurstObservation? {
        if reporter.verbose { for d in waiting { reporter.note(.detected(d)) } }
        waiting.removeAll()
        return nil
    }

    /// How many bursts had an unproven mark, with the first of them; nil when none had.
    public func inputEnded(decodedBytes: Int) -> DecodeNote? {
        guard unproven.bursts > 0, let d = unproven.first else { return nil }
        return .markUnproven(bursts: unproven.bursts, first: d)
    }
}
