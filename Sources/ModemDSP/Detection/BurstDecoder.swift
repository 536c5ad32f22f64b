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

    mutating func process(_ samples: UnsafeBufferPointer<Int16>, into events: inout [ModemEvent]) {
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

/// A sample type ``AutoReceiver`` takes: how it goes into the ring (floats, full scale 1,
/// non-finite as silence) and which of a burst decoder's paths it goes to.
protocol RingSample {
    /// Stores `part` as floats at `ring` and returns its energy (sum of squares, full scale 1).
    static func store(_ part: UnsafeBufferPointer<Self>, to ring: UnsafeMutablePointer<Float>) -> Double
    static func decode(_ part: UnsafeBufferPointer<Self>, with decoder: inout BurstDecoder, into events: inout [ModemEvent])
}

extension Float: RingSample {
    static func store(_ part: UnsafeBufferPointer<Float>, to ring: UnsafeMutablePointer<Float>) -> Double {
        var energy: Float = 0
        for k in part.indices {
            let v = part[k].isFinite ? part[k] : 0
            ring[k] = v
            energy += v * v
        }
        return Double(energy)
    }

    static func decode(_ part: UnsafeBufferPointer<Float>, with decoder: inout BurstDecoder, into events: inout [ModemEvent]) {
        decoder.process(part, into: &events)
    }
}

extension Int16: RingSample {
    /// Two plain loops the compiler vectorises: the conversion, and the energy in integers
    /// (exact, so its order does not matter).
    static func store(_ part: UnsafeBufferPointer<Int16>, to ring: UnsafeMutablePointer<Float>) -> Double {
        for k in part.indices { ring[k] = Float(part[k]) * (1 / 32_768) }
        var energy: Int64 = 0
        for x in part {
            let v = Int32(x)
            energy &+= Int64(v &* v)
        }
        return Double(energy) * 0x1p-30
    }

    static func decode(_ part: UnsafeBufferPointer<Int16>, with decoder: inout BurstDecoder, into events: inout [ModemEvent]) {
        decoder.process(part, into: &events)
    }
}
