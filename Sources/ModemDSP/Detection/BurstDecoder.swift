/// The decoder ``AutoReceiver`` runs on one detected burst: an FSK demodulator set up for
/// the burst's tones, bit rate and format, or a HiJack decoder.
///
/// Dispatch is once per chunk, never per sample: each case's own loop stays specialised.
enum BurstDecoder: Sendable {
    case fsk(FSKDemodulator)
    case hijack(HiJackDecoder)
    /// Only while a payload is being mutated in place (keeps its storage uniquely held).
    case moving

    mutating func process(_ samples: UnsafeBufferPointer<Float>, into events: inout [ModemEvent]) {
        switch self {
        case .fsk(var d):
            self = .moving
            d.process(samples, into: &events)
            self = .fsk(d)
        case .hijack(var d):
            self = .moving
            d.process(samples, into: &events)
            self = .hijack(d)
        case .moving:
            break
        }
    }

    mutating func flush(into events: inout [ModemEvent]) {
        switch self {
        case .fsk(var d):
            self = .moving
            d.flush(into: &events)
            self = .fsk(d)
        case .hijack(var d):
            self = .moving
            d.flush(into: &events)
            self = .hijack(d)
        case .moving:
            break
        }
    }

    var isInBurst: Bool {
        switch self {
        case .fsk(let d): return d.isInBurst
        case .hijack(let d): return d.isInBurst
        case .moving: return false
        }
    }
}
