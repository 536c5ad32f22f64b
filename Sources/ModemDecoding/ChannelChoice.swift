public import ModemDSP

/// Which channel of a multi-channel input carries the modem: one rule for every modem.
///
/// Every channel is decoded for the first second after the signal appears (the first
/// non-zero sample); the channel with the most good characters is kept, ties going to the
/// strongest measured signal (FSK measures it; HiJack does not), then to the lower channel.
/// Input shorter than that is decided at its end.
@usableFromInline enum ChannelChoice {
    /// How long all channels are decoded before one is chosen.
    @usableFromInline static let decisionSeconds = 1.0

    /// The index (into `pending`) of the channel to keep.
    @usableFromInline static func pick(_ pending: [[ModemEvent]]) -> Int {
        var best = 0
        var bestKey = (-1, -1.0)
        for (i, list) in pending.enumerated() {
            var bytes = 0
            var power = 0.0
            for e in list where e.kind == .byte {
                bytes += 1
                power += e.signalPower ?? 0
            }
            if (bytes, power) > bestKey {
                bestKey = (bytes, power)
                best = i
            }
        }
        return best
    }
}
