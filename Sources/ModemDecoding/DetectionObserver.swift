public import ModemDSP

/// What the automatic receiver detected: with `-v`, each burst's detection, just before the
/// burst's own report; always, at the end, how many bursts were not printed because nothing
/// proved which tone is mark (``Detection/MarkEvidence``) or whether characters have 7 data
/// bits or 8 (``Detection/FormatEvidence``).
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
    private var formatUnproven: (bursts: Int, first: Detection?) = (0, nil)

    /// - Parameter reporter: takes the `-v` notes.
    public init(reporter: any DecodeReporting) { self.reporter = reporter }

    /// Never needs samples: detections are read from the receiver.
    public func wantsSamples(inBurst: Bool) -> Bool { false }

    /// Queues each newly settled detection for the burst's report and counts those whose mark
    /// or format is unproven.
    public func observe(
        _ samples: UnsafeBufferPointer<Float>, receiver: inout AutoReceiver, events: ArraySlice<ModemEvent>
    ) {
        let detections = receiver.detections
        // Settled detections only: the last one may still be read both ways round.
        while reported < detections.count, detections[reported].markEvidence != .undecided,
            detections[reported].formatEvidence != .undecided
        {
            let d = detections[reported]
            if d.markEvidence == .unproven {
                unproven.bursts += 1
                if unproven.first == nil { unproven.first = d }
            }
            if d.formatEvidence == .unproven {
                formatUnproven.bursts += 1
                if formatUnproven.first == nil { formatUnproven.first = d }
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

    /// How many bursts had an unproven mark, with the first of them; else how many had an
    /// unproven format; nil when none had either.
    public func inputEnded(decodedBytes: Int) -> DecodeNote? {
        if unproven.bursts > 0, let d = unproven.first { return .markUnproven(bursts: unproven.bursts, first: d) }
        guard formatUnproven.bursts > 0, let d = formatUnproven.first else { return nil }
        return .formatUnproven(bursts: formatUnproven.bursts, first: d)
    }
}
