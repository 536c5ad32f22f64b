import ModemFraming

/// Says once what the opening exchange agreed, and once that the far end answered no hello
/// (the link then sends as to a first-version board), for the live loops that run a
/// ``ReliableSender``.
struct AgreementNotices {
    private var agreed = false
    private var assumed = false

    /// Notices what changed in `sender` since the last call.
    mutating func update(_ sender: ReliableSender, _ notices: any LiveNoticeHandler) {
        guard !agreed, let caps = sender.agreed else { return }
        if sender.assumedFirstVersion {
            guard !assumed else { return }
            assumed = true
            notices.notice(.reliableLinkUnanswered(caps))
        } else {
            agreed = true
            notices.notice(.reliableLinkAgreed(caps, fullDuplex: sender.fullDuplex))
        }
    }
}
